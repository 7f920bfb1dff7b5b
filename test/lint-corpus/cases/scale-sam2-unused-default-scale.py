# case: scale-sam2-unused-default-scale
# modelled-on: facebookresearch/sam2 https://github.com/facebookresearch/sam2/pull/167
# label: correct
# pattern: the module computes self.scale = head_dim ** -0.5 in __init__ and never uses it; the forward pools the queries of a (B, H, W, C) feature map and calls SDPA on (B, heads, L, head_dim) without scale=
# why: the unused scale equals SDPA's default 1/sqrt(head_dim) (the PR only removes the dead attribute), so the kernel computes exactly the intended scaling; a kernel that ignores a computed scale is only wrong when that scale differs from the default
# looks-like: ATT004, ATT003
import torch
import torch.nn.functional as F
from torch import nn


class PooledQueryAttention(nn.Module):
    def __init__(self, dim: int, dim_out: int, num_heads: int, q_pool: nn.Module = None):
        super().__init__()
        self.dim = dim
        self.dim_out = dim_out
        self.num_heads = num_heads
        head_dim = dim_out // num_heads
        self.scale = head_dim ** -0.5
        self.q_pool = q_pool
        self.qkv = nn.Linear(dim, dim_out * 3)
        self.proj = nn.Linear(dim_out, dim_out)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, H, W, _ = x.shape
        # qkv: (B, H * W, 3, nHead, C)
        qkv = self.qkv(x).reshape(B, H * W, 3, self.num_heads, -1)
        q, k, v = torch.unbind(qkv, 2)
        if self.q_pool is not None:
            q = q.reshape(B, H, W, -1).permute(0, 3, 1, 2)
            q = self.q_pool(q).permute(0, 2, 3, 1)
            H, W = q.shape[1:3]
            q = q.reshape(B, H * W, self.num_heads, -1)
        x = F.scaled_dot_product_attention(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2))
        x = x.transpose(1, 2).reshape(B, H, W, -1)
        return self.proj(x)
