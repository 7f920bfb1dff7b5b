# case: b42-09-clean
# modelled-on: AletheionAGI/aletheion-llm https://github.com/AletheionAGI/aletheion-llm/commit/eb9955d84da8138c07ce5bedaa3b018ffab879b8
# label: correct
# class: clean
# pattern: baseline multi-head self-attention for a small LM with an optional FlashAttention path: a fused qkv projection is reshaped to (B, T, 3, H, Dh) and unbound; when flash_attn_func is available the (B, T, H, Dh) tensors go to it with causal=True; otherwise q.k^T / sqrt(d_head) is masked with masked_fill(~mask, -inf) where mask is boolean (True = may attend), softmaxed over the last axis; the causal subclass registers a boolean tril buffer and slices it to the sequence length
# why: correct: the mask passed by the causal subclass is a boolean lower triangle (True on and below the diagonal), so ~mask is exactly the future and is filled with -inf before the softmax; the diagonal is always kept, so no row is all -inf; flash_attn_func takes (batch, seq, heads, head_dim) and causal=True applies the same triangle; scale 1/sqrt(d_head)
# looks-like: ATT002, ATT006, ATT008
# source: https://github.com/AletheionAGI/aletheion-llm https://github.com/AletheionAGI/aletheion-llm/commit/eb9955d84da8138c07ce5bedaa3b018ffab879b8 src/attention.py
from __future__ import annotations

import math

import torch
from torch import nn
from torch.nn import functional as F

try:
    from flash_attn import flash_attn_func
except ImportError:
    flash_attn_func = None


class SelfAttention(nn.Module):
    def __init__(self, width: int, n_heads: int, p_drop: float = 0.1, flash: bool = False) -> None:
        super().__init__()
        if width % n_heads:
            raise ValueError("width must be a multiple of n_heads")
        self.width = width
        self.n_heads = n_heads
        self.d_head = width // n_heads
        self.qkv = nn.Linear(width, 3 * width, bias=False)
        self.proj = nn.Linear(width, width, bias=False)
        self.drop_attn = nn.Dropout(p_drop)
        self.drop_out = nn.Dropout(p_drop)
        self.flash = flash_attn_func if flash else None

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None, need_weights: bool = False):
        b, t, _ = x.shape
        parts = self.qkv(x).reshape(b, t, 3, self.n_heads, self.d_head)
        q, k, v = parts.unbind(dim=2)  # each (B, T, H, Dh)

        if self.flash is not None and not need_weights:
            y = self.flash(q, k, v, causal=True).reshape(b, t, self.width)
            weights = None
        else:
            y, weights = self.reference(q.transpose(1, 2), k.transpose(1, 2), v.transpose(1, 2), mask)

        y = self.drop_out(self.proj(y))
        return (y, weights) if need_weights else y

    def reference(self, q, k, v, mask):
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.d_head)
        if mask is not None:
            if mask.dim() == 3:
                mask = mask[:, None]
            scores = scores.masked_fill(~mask, float("-inf"))
        weights = self.drop_attn(F.softmax(scores, dim=-1))
        y = (weights @ v).transpose(1, 2).contiguous().view(q.shape[0], q.shape[2], self.width)
        return y, weights


class CausalSelfAttention(SelfAttention):
    def __init__(self, width: int, n_heads: int, max_len: int = 2048, **kw) -> None:
        super().__init__(width, n_heads, **kw)
        lower = torch.tril(torch.ones(max_len, max_len, dtype=torch.bool))
        self.register_buffer("lower", lower[None, None], persistent=False)

    def forward(self, x: torch.Tensor, **kw):
        t = x.shape[1]
        return super().forward(x, mask=self.lower[:, :, :t, :t], **kw)
