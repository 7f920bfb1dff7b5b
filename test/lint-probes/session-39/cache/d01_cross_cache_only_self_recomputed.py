import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderLayer(nn.Module):
    """Caches only the cross-attention keys; self-attention is recomputed over the whole prefix each step."""

    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.sa = nn.Linear(d, 3 * d)
        self.cq, self.ckv = nn.Linear(d, d), nn.Linear(d, 2 * d)
        self.cross_cache = None

    def split(self, t):
        B, T, _ = t.shape
        return t.view(B, T, self.h, -1).transpose(1, 2)

    def forward(self, y, memory):
        q, k, v = (self.split(t) for t in self.sa(y).chunk(3, -1))
        y = y + F.scaled_dot_product_attention(q, k, v, is_causal=True).transpose(1, 2).flatten(2)
        if self.cross_cache is None:
            self.cross_cache = [self.split(t) for t in self.ckv(memory).chunk(2, -1)]
        ck, cv = self.cross_cache
        return y + F.scaled_dot_product_attention(self.split(self.cq(y)), ck, cv).transpose(1, 2).flatten(2)
