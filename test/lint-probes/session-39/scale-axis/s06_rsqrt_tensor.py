import torch
import torch.nn as nn


class Rsqrt(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.nh = num_heads
        self.hd = embed_dim // num_heads
        self.in_proj = nn.Linear(embed_dim, 3 * embed_dim)

    def forward(self, x):
        B, L, E = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.view(B, L, self.nh, self.hd).transpose(1, 2)  # (B, nh, L, hd)
        k = k.view(B, L, self.nh, self.hd).transpose(1, 2)
        v = v.view(B, L, self.nh, self.hd).transpose(1, 2)
        inv = torch.rsqrt(torch.tensor(float(k.shape[-1]), device=x.device))
        att = torch.softmax((q @ k.transpose(-1, -2)) * inv, dim=-1)
        return (att @ v).transpose(1, 2).reshape(B, L, E)
