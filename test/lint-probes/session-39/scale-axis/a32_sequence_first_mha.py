import math
import torch
import torch.nn as nn


class SeqFirst(nn.Module):
    """fairseq layout: inputs (T, B, C), heads folded into the batch: (B*H, T, d) scores over S."""

    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.h = num_heads
        self.hd = embed_dim // num_heads
        self.scaling = self.hd ** -0.5
        self.in_proj = nn.Linear(embed_dim, 3 * embed_dim)

    def forward(self, x):
        T, B, C = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q * self.scaling
        q = q.contiguous().view(T, B * self.h, self.hd).transpose(0, 1)  # (B*h, T, hd)
        k = k.contiguous().view(-1, B * self.h, self.hd).transpose(0, 1)
        v = v.contiguous().view(-1, B * self.h, self.hd).transpose(0, 1)
        w = torch.bmm(q, k.transpose(1, 2))  # (B*h, T, S)
        w = torch.softmax(w, dim=-1)
        out = torch.bmm(w, v).transpose(0, 1).contiguous().view(T, B, C)
        return out
