import math
import torch
import torch.nn as nn


class AugAttention(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.heads = heads
        self.head_size = hidden // heads
        self.norm = math.sqrt(self.head_size)
        self.wq = nn.Linear(hidden, hidden)
        self.wk = nn.Linear(hidden, hidden)
        self.wv = nn.Linear(hidden, hidden)

    def forward(self, x):
        b, t, _ = x.shape
        q = self.wq(x).view(b, t, self.heads, self.head_size).transpose(1, 2)
        k = self.wk(x).view(b, t, self.heads, self.head_size).transpose(1, 2)
        v = self.wv(x).view(b, t, self.heads, self.head_size).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-1, -2)).float()
        scores /= self.norm
        probs = torch.softmax(scores, dim=-1).to(v.dtype)
        return torch.matmul(probs, v).transpose(1, 2).reshape(b, t, -1)
