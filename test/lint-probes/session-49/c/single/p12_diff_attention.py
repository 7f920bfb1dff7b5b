import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class DifferentialAttention(nn.Module):
    """Two softmax maps subtracted, lambda re-parameterised (Differential Transformer)."""

    def __init__(self, dim, heads, depth):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads // 2
        self.q = nn.Linear(dim, dim, bias=False)
        self.k = nn.Linear(dim, dim, bias=False)
        self.v = nn.Linear(dim, dim, bias=False)
        self.lambda_init = 0.8 - 0.6 * math.exp(-0.3 * depth)
        self.lq1 = nn.Parameter(torch.zeros(self.hd).normal_(0, 0.1))
        self.lk1 = nn.Parameter(torch.zeros(self.hd).normal_(0, 0.1))
        self.lq2 = nn.Parameter(torch.zeros(self.hd).normal_(0, 0.1))
        self.lk2 = nn.Parameter(torch.zeros(self.hd).normal_(0, 0.1))

    def forward(self, x):
        B, T, C = x.shape
        q = self.q(x).view(B, T, 2 * self.heads, self.hd).transpose(1, 2)
        k = self.k(x).view(B, T, 2 * self.heads, self.hd).transpose(1, 2)
        v = self.v(x).view(B, T, self.heads, 2 * self.hd).transpose(1, 2)
        s = q @ k.transpose(-1, -2) / math.sqrt(self.hd)
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).triu(1)
        s = s.masked_fill(causal, float("-inf"))
        p = F.softmax(s, dim=-1).view(B, self.heads, 2, T, T)
        lam = torch.exp(torch.dot(self.lq1, self.lk1)) - torch.exp(torch.dot(self.lq2, self.lk2)) + self.lambda_init
        attn = p[:, :, 0] - lam * p[:, :, 1]
        out = attn @ v
        return out.transpose(1, 2).reshape(B, T, C) * (1 - self.lambda_init)
