import torch.nn as nn
import torch.nn.functional as F


class PreScaledSDPA(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        q = q * self.scale
        out = F.scaled_dot_product_attention(q, k, v, scale=1.0)
        return out.transpose(1, 2).reshape(B, N, C)
