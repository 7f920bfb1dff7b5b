import torch
import torch.nn as nn


class HeadsLast(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, D // self.heads).unbind(2)  # (B, N, h, d)
        s = torch.einsum("bqhd,bkhd->bqkh", q, k) * (D // self.heads) ** -0.5  # (B, Nq, Nk, h)
        w = s.softmax(dim=2)  # over keys
        out = torch.einsum("bqkh,bkhd->bqhd", w, v)
        return out.reshape(B, N, D)
