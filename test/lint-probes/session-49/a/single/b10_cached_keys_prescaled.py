import torch
import torch.nn as nn


class PrescaledKeyCache(nn.Module):
    """Keys are scaled once when they are projected, so cached keys need no scale at each decoding step."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.dh = dim // heads
        self.scale = self.dh ** -0.5
        self.q = nn.Linear(dim, dim)
        self.kv = nn.Linear(dim, 2 * dim)
        self.k_cache = None
        self.v_cache = None

    def _project_kv(self, x):
        B, T, _ = x.shape
        k, v = self.kv(x).view(B, T, 2, self.heads, self.dh).permute(2, 0, 3, 1, 4)
        return k * self.scale, v

    def forward(self, x):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.heads, self.dh).transpose(1, 2)
        k, v = self._project_kv(x)
        if self.k_cache is not None:
            k = torch.cat([self.k_cache, k], dim=2)
            v = torch.cat([self.v_cache, v], dim=2)
        self.k_cache, self.v_cache = k.detach(), v.detach()
        probs = torch.softmax(q @ k.transpose(-2, -1), dim=-1)
        return (probs @ v).transpose(1, 2).reshape(B, T, D)
