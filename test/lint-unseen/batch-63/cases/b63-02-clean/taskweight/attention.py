# case: b63-02-clean
# modelled-on: AroofAimen/Task-Attended-Metalearning https://github.com/AroofAimen/Task-Attended-Metalearning/commit/4c6291576e4a2cae8dd08e972bd1c50ddbd89697
# label: correct
# class: clean
# pattern: task attention for meta-learning, as a folder: `meta.py` stacks four statistics of every task in the meta-batch (loss, gradient norm, accuracy ratio, loss ratio) into a (1, 4, n_tasks) tensor; `attention.py` mixes the four statistics with a 1x1 Conv1d into (1, 1, n_tasks), runs an MLP whose Linear layers act on the task axis, and ends the `nn.Sequential` with `nn.Softmax(dim=-1)`; `meta.py` reshapes the result to (n_tasks,) and uses it to weight each task's meta-gradient
# why: correct: the Conv1d reduces the statistics (channel) axis, so the last axis that reaches the softmax is the task axis and the weights sum to one over the tasks of the meta-batch, which is what the task-attended update sums over; there are no query-key products, so no 1/sqrt(d) factor is involved, and every task of the fixed-size meta-batch is real, so nothing is masked
# looks-like: ATT001, ATT003
# source: https://github.com/AroofAimen/Task-Attended-Metalearning https://github.com/AroofAimen/Task-Attended-Metalearning/commit/4c6291576e4a2cae8dd08e972bd1c50ddbd89697 models/attention.py
import torch.nn as nn


def task_attention(n_stats=4, n_tasks=4, width=32, depth=2, act=nn.ReLU):
    """(1, n_stats, n_tasks) task statistics -> (1, 1, n_tasks) weights over the meta-batch."""
    net = nn.Sequential()
    net.add_module("mix_stats", nn.Conv1d(n_stats, 1, kernel_size=1))
    net.add_module("fc_in", nn.Linear(n_tasks, width))
    net.add_module("act_in", act())
    for i in range(depth - 1):
        net.add_module(f"fc_{i}", nn.Linear(width, width))
        net.add_module(f"act_{i}", act())
    net.add_module("fc_out", nn.Linear(width, n_tasks))
    net.add_module("weights", nn.Softmax(dim=-1))
    return net
