import numpy as np
import torch.nn as nn
import torch.nn.functional as F


class DotAttention(nn.Module):
    def forward(self, q, k, v, mask=None):
        """q (*, lq, d), k (*, lk, d), v (*, lk, d); mask (*, lq, lk), 0 is hidden."""
        d = q.shape[-1]
        scores = q @ k.transpose(-2, -1) / (d**0.5)  # (*, lq, lk)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -np.inf)
        weights = F.softmax(scores, dim=-1)
        return weights @ v, weights


class HeadsAttention(nn.Module):
    def __init__(self, heads, dim):
        super().__init__()
        if dim % heads != 0:
            raise ValueError("dim must be a multiple of heads")
        self.heads = heads
        self.dim = dim
        self.inner = DotAttention()
        self.wq = nn.Linear(dim, dim)
        self.wk = nn.Linear(dim, dim)
        self.wv = nn.Linear(dim, dim)
        self.wo = nn.Linear(dim, dim)

    def forward(self, q, k, v, mask):
        bs, lq = q.shape[:2]
        hd = self.dim // self.heads
        # (bs, len, dim) -> (bs, heads, len, hd)
        q = self.wq(q).view(bs, -1, self.heads, hd).transpose(1, 2)
        k = self.wk(k).view(bs, -1, self.heads, hd).transpose(1, 2)
        v = self.wv(v).view(bs, -1, self.heads, hd).transpose(1, 2)
        if mask is not None:
            mask = mask.unsqueeze(1)  # a head axis
        ctx, self.last_weights = self.inner(q, k, v, mask)
        ctx = ctx.transpose(1, 2).contiguous().view(bs, lq, self.dim)
        return self.wo(ctx)
