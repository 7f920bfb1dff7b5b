import math
import torch
import torch.nn as nn


class InPlaceDivide(nn.Module):
    def __init__(self, d_model, h):
        super().__init__()
        self.h = h
        self.d_k = d_model // h
        self.norm = math.sqrt(self.d_k)
        self.proj = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(3)])

    def forward(self, query, key, value, mask=None):
        nb = query.size(0)
        # each: (B, T, d_model) -> (B, h, T, d_k)
        query, key, value = [
            lin(t).view(nb, -1, self.h, self.d_k).transpose(1, 2) for lin, t in zip(self.proj, (query, key, value))
        ]
        scores = torch.matmul(query, key.transpose(-2, -1))
        scores /= self.norm
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e9)
        p = torch.softmax(scores, dim=-1)
        return torch.matmul(p, value)
