# case: b4-27-softmax
# modelled-on: wonjun-dev/Transformer-Pytorch https://github.com/wonjun-dev/Transformer-Pytorch/commit/d2663d6c4e80c576242d4afe330781739f2dec38
# label: correct
# class: fixed
# pattern: the same scaled dot-product attention after the fix: (N, S, E) inputs, Q @ K.transpose(2, 1) / sqrt(E), a softmax over the last axis of the (N, S, S) scores and the weighted sum of V
# why: correct: each query's weights are normalised over the keys; on 3-D keys transpose(2, 1) swaps the last two axes
# looks-like: ATT001, ATT005
# source: https://github.com/wonjun-dev/Transformer-Pytorch https://github.com/wonjun-dev/Transformer-Pytorch/commit/d2663d6c4e80c576242d4afe330781739f2dec38 attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_attention(Q, K, V):
    # Q, K, V: (N, S, E) -> (N, S, E)
    scale = math.sqrt(K.size()[-1])
    weights = torch.matmul(Q, K.transpose(2, 1).contiguous()) / scale  # (N, S, S)
    probs = F.softmax(weights, dim=-1)
    return torch.matmul(probs, V)


class SelfAttentionLayer(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)

    def forward(self, x):
        return scaled_attention(self.wq(x), self.wk(x), self.wv(x))
