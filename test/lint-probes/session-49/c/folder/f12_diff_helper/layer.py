import torch
import torch.nn as nn
from kernels import two_maps


class DiffAttn(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.q = nn.Linear(d, 2 * d)
        self.k = nn.Linear(d, 2 * d)
        self.v = nn.Linear(d, d)
        self.lam = nn.Parameter(torch.tensor(0.5))
        self.norm = nn.GroupNorm(h, d)

    def forward(self, x):
        B, T, D = x.shape
        q1, q2 = self.q(x).view(B, T, self.h, -1).transpose(1, 2).chunk(2, dim=-1)
        k1, k2 = self.k(x).view(B, T, self.h, -1).transpose(1, 2).chunk(2, dim=-1)
        v = self.v(x).view(B, T, self.h, -1).transpose(1, 2)
        causal = torch.ones(T, T, dtype=torch.bool, device=x.device).tril()
        a1, a2 = two_maps(q1, k1, q2, k2, causal)
        out = (a1 - self.lam * a2) @ v
        out = out.transpose(1, 2).reshape(B, T, D)
        return self.norm(out.transpose(1, 2)).transpose(1, 2)
