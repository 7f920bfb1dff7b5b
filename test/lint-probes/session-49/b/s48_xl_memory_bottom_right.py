import torch
from torch import nn


class XLAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h, self.dk = h, d // h
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)

    def forward(self, x, mems):
        B, T, _ = x.shape
        cat = torch.cat([mems, x], dim=1)
        M = mems.size(1)
        q = self.q(x).view(B, T, self.h, self.dk).transpose(1, 2)
        k, v = self.kv(cat).view(B, T + M, 2, self.h, self.dk).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-1, -2) / self.dk**0.5
        future = torch.triu(torch.ones(T, T + M, dtype=torch.bool, device=x.device), diagonal=1 + M)
        s = s.masked_fill(future, float("-inf"))
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, -1), cat[:, -M:].detach()
