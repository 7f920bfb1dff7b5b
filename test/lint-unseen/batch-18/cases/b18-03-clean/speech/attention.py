from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


def length_bias(lens: torch.Tensor, t_kv: int, dtype: torch.dtype, starts: Optional[torch.Tensor] = None):
    """(B, 1, 1, T_kv) additive mask: 0 inside [start, len), -inf outside."""
    pos = torch.arange(t_kv, device=lens.device)
    keep = pos.unsqueeze(0) < lens.unsqueeze(1)
    if starts is not None:
        keep = keep & (pos.unsqueeze(0) >= starts.unsqueeze(1))
    return torch.where(keep, 0.0, float("-inf")).to(dtype)[:, None, None, :]


def fold_causal(mask: torch.Tensor, t_q: int, t_kv: int) -> torch.Tensor:
    upper = torch.ones(t_q, t_kv, dtype=torch.bool, device=mask.device).triu(1)
    mask = mask.expand(mask.size(0), mask.size(1), t_q, t_kv).clone()
    return mask.masked_fill(upper.view(1, 1, t_q, t_kv), float("-inf"))


class Attention(nn.Module):
    """Shared core: q (B, h, T_q, d), k / v (B, h, T_k, d)."""

    def __init__(self, heads: int, head_dim: int):
        super().__init__()
        self.heads = heads
        self.head_dim = head_dim
        self.softmax_scale = head_dim ** -0.5

    def split_heads(self, x: torch.Tensor) -> torch.Tensor:
        b, t, _ = x.shape
        return x.view(b, t, self.heads, self.head_dim).transpose(1, 2)

    def merge_heads(self, x: torch.Tensor) -> torch.Tensor:
        b, _, t, _ = x.shape
        return x.transpose(1, 2).reshape(b, t, self.heads * self.head_dim)

    def forward(self, q, k, v, kv_lens=None, kv_starts=None, is_causal: bool = False):
        mask = None
        if kv_lens is not None:
            mask = length_bias(kv_lens, k.size(2), q.dtype, kv_starts)
        if is_causal and mask is not None:
            # SDPA refuses an explicit mask together with is_causal: fold the triangle in
            mask = fold_causal(mask, q.size(2), k.size(2))
            is_causal = False
        return F.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, is_causal=is_causal, scale=self.softmax_scale
        )
