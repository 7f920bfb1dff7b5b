import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class CosineSDPA(nn.Module):
    """Cosine attention through SDPA: the learned logit scale handed in as scale=."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.logit_scale = nn.Parameter(torch.full((heads, 1, 1), math.log(10.0)))

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q = F.normalize(q, dim=-1) * self.logit_scale.clamp(max=math.log(100.0)).exp()
        k = F.normalize(k, dim=-1)
        out = F.scaled_dot_product_attention(q, k, v, scale=1.0)
        return out.transpose(1, 2).reshape(B, N, C)
