# case: b19-08-scale
# modelled-on: sakuranew/attention-pytorch https://github.com/sakuranew/attention-pytorch/commit/0790b1e61a238c0bd8d62c786c3fbb12145aab8e
# label: buggy
# class: real-bug
# pattern: a general attention module for text models with optional multi-head splitting: q and k are projected to q_k_hidden_size, head_dim = q_k_hidden_size // num_heads, heads are folded into the batch with view(b, len, heads, head_dim).permute(2, 0, 1, 3) and view(-1, len, head_dim); the "scaled_dot" score divides torch.bmm(q, k.permute(0, 2, 1)) by math.sqrt(self.q_k_hidden_size); softmax over dim=-1, the heads are split back with torch.split(output, batch) and concatenated; a self-attention subclass in another module feeds the same tensor as q, k and v
# why: buggy: the scores are dot products of head_dim-wide vectors, but they are divided by the square root of the full projection width, so with num_heads > 1 the scale is 1/sqrt(num_heads) too small (the module computes head_dim for the split and then does not use it for the scale)
# source: https://github.com/sakuranew/attention-pytorch https://github.com/sakuranew/attention-pytorch/commit/0790b1e61a238c0bd8d62c786c3fbb12145aab8e attention.py, self_attention.py
import math

import torch
from torch import nn


def identity(x):
    return x


class BasicAttention(nn.Module):
    def __init__(self, q_size, k_size, v_size, qk_hidden=None, out_hidden=None, num_heads=1, score_func="scaled_dot", drop_rate=0.0, bias=True):
        super().__init__()
        qk_hidden = qk_hidden or q_size
        out_hidden = out_hidden or v_size
        assert qk_hidden % num_heads == 0, "qk_hidden must be divisible by num_heads"
        assert out_hidden % num_heads == 0, "out_hidden must be divisible by num_heads"
        self.head_dim = qk_hidden // num_heads
        self.q_w = nn.Linear(q_size, qk_hidden, bias=bias)
        self.k_w = nn.Linear(k_size, qk_hidden, bias=bias)
        self.v_w = nn.Linear(v_size, out_hidden, bias=bias)
        self.qk_hidden = qk_hidden
        self.out_hidden = out_hidden
        self.num_heads = num_heads
        self.score_func = score_func
        self.drop_rate = drop_rate

    def _fold(self, x, width):
        b, n = x.shape[0], x.shape[1]
        return x.view(b, n, self.num_heads, width).permute(2, 0, 1, 3).contiguous().view(-1, n, width)

    def forward(self, q_in, k_in, v_in):
        if q_in.dim() == 2:
            q_in = q_in.unsqueeze(1)
        b = q_in.shape[0]
        assert k_in.shape[1] == v_in.shape[1]
        q = self._fold(self.q_w(q_in), self.head_dim)
        k = self._fold(self.k_w(k_in), self.head_dim)
        v = self._fold(self.v_w(v_in), self.out_hidden // self.num_heads)

        if self.score_func == "dot":
            score = torch.bmm(q, k.permute(0, 2, 1))
        elif self.score_func == "scaled_dot":
            raw = torch.bmm(q, k.permute(0, 2, 1))
            score = torch.div(raw, math.sqrt(self.qk_hidden))  # expect: ATT004
        elif callable(self.score_func):
            score = self.score_func(q, k)
        else:
            raise RuntimeError("invalid score function")
        score = nn.functional.softmax(score, dim=-1)
        score = nn.functional.dropout(score, p=self.drop_rate, training=self.training)

        out = torch.bmm(score, v)
        return torch.cat(torch.split(out, b), -1)
