import torch
import torch.nn as nn
import torch.nn.functional as F


class CustomScaleSDPA(nn.Module):
    def __init__(self, dim, heads, qk_norm_scale=10.0):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.scale = qk_norm_scale

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.heads, C // self.heads).unbind(2)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))  # (B, H, N, D)
        q = F.normalize(q, dim=-1)
        k = F.normalize(k, dim=-1)
        out = F.scaled_dot_product_attention(q, k, v, scale=self.scale)
        return out.transpose(1, 2).reshape(B, N, C)
