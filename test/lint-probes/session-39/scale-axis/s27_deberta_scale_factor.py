import math
import torch
import torch.nn as nn


class DisentangledScores(nn.Module):
    """Three score terms are summed (c2c, c2p, p2c), so the scale is 1/sqrt(3 * d): each term has variance d."""

    def __init__(self, hidden, heads, max_rel=128):
        super().__init__()
        self.heads = heads
        self.hd = hidden // heads
        self.q = nn.Linear(hidden, hidden)
        self.k = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, hidden)
        self.pos_q = nn.Linear(hidden, hidden)
        self.pos_k = nn.Linear(hidden, hidden)
        self.rel = nn.Embedding(2 * max_rel, hidden)
        self.max_rel = max_rel

    def split(self, t):
        B, T, _ = t.shape
        return t.view(B, T, self.heads, self.hd).transpose(1, 2)

    def forward(self, x, rel_idx):
        # rel_idx: (T, T) long in [0, 2 * max_rel)
        q, k, v = self.split(self.q(x)), self.split(self.k(x)), self.split(self.v(x))
        r = self.rel.weight.unsqueeze(0)  # (1, 2R, hidden)
        pk, pq = self.split(self.pos_k(r)), self.split(self.pos_q(r))  # (1, H, 2R, hd)
        scale_factor = 1 + 2
        scale = math.sqrt(q.size(-1) * scale_factor)
        c2c = q @ k.transpose(-1, -2)
        c2p = torch.gather(q @ pk.transpose(-1, -2), -1, rel_idx.expand(q.size(0), self.heads, -1, -1))
        p2c = torch.gather(k @ pq.transpose(-1, -2), -1, rel_idx.expand(q.size(0), self.heads, -1, -1)).transpose(-1, -2)
        scores = (c2c + c2p + p2c) / scale
        probs = scores.softmax(-1)
        return (probs @ v).transpose(1, 2).flatten(2)
