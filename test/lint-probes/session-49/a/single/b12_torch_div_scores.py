import math
import torch
import torch.nn as nn


class DivAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, x, mask=None):
        B, T, D = x.shape
        q, k, v = self.qkv(x).split(D, dim=-1)
        q, k, v = (t.reshape(B, T, self.n_heads, self.d_k).transpose(1, 2) for t in (q, k, v))
        scores = torch.div(torch.matmul(q, k.transpose(-2, -1)), math.sqrt(self.d_k))
        if mask is not None:
            scores = scores.masked_fill(~mask, torch.finfo(scores.dtype).min)
        return torch.matmul(torch.softmax(scores, dim=-1), v).transpose(1, 2).reshape(B, T, D)
