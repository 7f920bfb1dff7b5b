import math
import torch.nn as nn
import torch.nn.functional as F


def yarn_get_mscale(scale=1.0, mscale=1.0):
    if scale <= 1:
        return 1.0
    return 0.1 * mscale * math.log(scale) + 1.0


class YarnAttention(nn.Module):
    def __init__(self, dim, heads, rope_factor=4.0, mscale_all_dim=1.0):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.softmax_scale = self.head_dim ** -0.5
        m = yarn_get_mscale(rope_factor, mscale_all_dim)
        self.softmax_scale = self.softmax_scale * m * m
        self.wqkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.heads, self.head_dim).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=self.softmax_scale)
        return y.transpose(1, 2).reshape(B, T, C)
