# case: b17-06-clean
# modelled-on: Shivanshu-Gupta/hierarchical-attention-network https://github.com/Shivanshu-Gupta/hierarchical-attention-network/commit/9cec8d8bcc50becdf60ca46e7f264cd1f89be89b
# label: correct
# class: clean
# pattern: a hierarchical attention network for review rating: variable-length sentences are packed for a bidirectional GRU, unpacked to (batch, max_len, 2h), scored against a learned context vector with mlp(outputs).matmul(context) into (batch, max_len) scores, and each sample's weights are computed inside a list comprehension as F.softmax(scores[i, :length], dim=0) over its own unpadded prefix, multiplied into outputs[i, :length] and stacked; a small attention module for a single unbatched (steps, dim) sequence softmaxes its (steps,) scores with dim=0
# why: correct: scores[i, :length] is a 1-D tensor of one sample's real tokens, so dim=0 is the token axis and the padding never enters the softmax (slicing replaces a mask); in the single-sequence module the input has no batch axis, so the (steps,) scores are again normalised over the steps; additive (context-vector) attention has no 1/sqrt(d) scale
# looks-like: ATT001, ATT003
# source: https://github.com/Shivanshu-Gupta/hierarchical-attention-network https://github.com/Shivanshu-Gupta/hierarchical-attention-network/commit/9cec8d8bcc50becdf60ca46e7f264cd1f89be89b model.py
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.nn.utils.rnn import pack_padded_sequence, pad_packed_sequence


class SequenceAttention(nn.Module):
    """Attention over one unbatched sequence: input (steps, dim)."""

    def __init__(self, dim):
        super().__init__()
        self.mlp = nn.Sequential(nn.Linear(dim, dim), nn.Tanh())
        self.context = nn.Parameter(torch.empty(dim).normal_(0, 0.1))

    def forward(self, steps):
        hidden = self.mlp(steps)
        weights = F.softmax(hidden.matmul(self.context), dim=0)
        return weights.matmul(hidden)


def pack(flat, lengths):
    padded = torch.zeros(lengths.shape[0], int(lengths.max()), flat.size(1), device=flat.device)
    start = 0
    for i, n in enumerate(lengths):
        padded[i, :n] = flat[start:start + n]
        start += n
    order = np.argsort(-lengths)
    padded = padded[torch.as_tensor(order, device=flat.device)]
    return pack_padded_sequence(padded, lengths[order], batch_first=True), order


class AttendedSequenceEmbedding(nn.Module):
    def __init__(self, input_dim=100, hidden_dim=50, output_dim=100):
        super().__init__()
        self.rnn = nn.GRU(input_dim, hidden_dim, bidirectional=True, batch_first=True)
        self.mlp = nn.Sequential(nn.Linear(2 * hidden_dim, output_dim), nn.Tanh())
        self.context = nn.Parameter(torch.empty(output_dim).normal_(0, 0.1))

    def forward(self, flat, lengths):
        packed, order = pack(flat, lengths)
        out, _ = self.rnn(packed)
        outputs, sorted_lengths = pad_packed_sequence(out, batch_first=True)  # (batch, max_len, 2h)
        scores = self.mlp(outputs).matmul(self.context)  # (batch, max_len)
        pooled = torch.stack(
            [F.softmax(scores[i, :n], dim=0).matmul(outputs[i, :n]) for i, n in enumerate(sorted_lengths)],
            dim=0,
        )
        restore = [0] * order.shape[0]
        for i in range(order.shape[0]):
            restore[order[i]] = i
        return pooled[torch.as_tensor(restore, device=pooled.device)]
