import torch
import torch.nn as nn
import torch.nn.functional as F


class LinearAttention(nn.Module):
    """elu+1 feature maps; the output is divided by the normaliser q . sum(k), not a scale."""

    def __init__(self, dim, heads, eps=1e-6):
        super().__init__()
        self.heads = heads
        self.eps = eps
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        q, k = F.elu(q) + 1, F.elu(k) + 1  # (B, h, N, d)
        kv = torch.einsum("bhnd,bhne->bhde", k, v)
        z = 1.0 / (torch.einsum("bhnd,bhd->bhn", q, k.sum(dim=2)) + self.eps)
        out = torch.einsum("bhnd,bhde,bhn->bhne", q, kv, z)
        return out.transpose(1, 2).reshape(B, N, D)
