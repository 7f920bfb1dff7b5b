import torch
import torch.nn as nn


class Retention(nn.Module):
    """Retention (no softmax): scores times a causal decay matrix, then a group norm."""

    def __init__(self, dim, heads, gamma=0.96875):
        super().__init__()
        self.heads = heads
        self.gamma = gamma
        self.qkv = nn.Linear(dim, 3 * dim)
        self.norm = nn.GroupNorm(heads, dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        n = torch.arange(T, device=x.device)
        decay = (self.gamma ** (n[:, None] - n[None, :]).float()) * (n[:, None] >= n[None, :])  # (T, T)
        s = (q @ k.transpose(-1, -2)) * (D // self.heads) ** -0.5
        s = s * decay
        out = s @ v  # (B, h, T, d)
        return self.norm(out.transpose(1, 2).reshape(B * T, D)).view(B, T, D)
