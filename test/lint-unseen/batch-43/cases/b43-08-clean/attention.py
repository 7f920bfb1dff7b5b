import torch
import torch.nn.functional as F
from torch import nn


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, width, heads):
        super().__init__()
        assert width % heads == 0
        self.heads = heads
        self.head_dim = width // heads
        self.wq = nn.Linear(width, width)
        self.wk = nn.Linear(width, width)
        self.wv = nn.Linear(width, width)
        self.wo = nn.Linear(width, width)

    def forward(self, x, mask=None):
        b, t, width = x.shape

        def split(z):
            return z.view(b, t, self.heads, self.head_dim).transpose(1, 2)

        q, k, v = split(self.wq(x)), split(self.wk(x)), split(self.wv(x))
        scores = torch.matmul(q, k.transpose(-2, -1)) / (self.head_dim ** 0.5)
        if mask is not None:
            # mask: (b or 1, 1, t, t), 1 where attention is allowed
            scores = scores.masked_fill(mask == 0, float("-inf"))
        weights = F.softmax(scores, dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2).contiguous().view(b, t, width)
        return self.wo(out), weights


class SingleHeadAttention(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.width = width
        self.wq = nn.Linear(width, width)
        self.wk = nn.Linear(width, width)
        self.wv = nn.Linear(width, width)
        self.wo = nn.Linear(width, width)

    def forward(self, x):
        q, k, v = self.wq(x), self.wk(x), self.wv(x)
        scores = torch.matmul(q, k.transpose(-2, -1)) / (self.width ** 0.5)
        weights = F.softmax(scores, dim=-1)
        return self.wo(torch.matmul(weights, v)), weights
