# case: b8-08-clean
# modelled-on: HuanLi0311/nanoGPT https://github.com/HuanLi0311/nanoGPT/commit/82ab0476b5e3970475da9ff14f3721601ec4ad74
# label: correct
# class: clean
# pattern: a small decoder-only LM whose self-attention takes an optional (k, v) cache: without a cache it calls SDPA with is_causal=True; with one it concatenates the cached keys, builds a boolean mask from absolute positions (key position <= past_length + query index) and passes it as attn_mask; the model threads the caches through its blocks and the sampling script feeds the whole window once and then one token per step, dropping the cache when the window is full
# why: correct: is_causal=True only runs without a cache (T_q == T_k); with a cache the mask is bottom-right aligned and uses SDPA's boolean convention (True = attend), so each new query sees every cached key and the new keys up to itself; RoPE is offset by the cached length
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/HuanLi0311/nanoGPT https://github.com/HuanLi0311/nanoGPT/commit/82ab0476b5e3970475da9ff14f3721601ec4ad74 language_model/model/decoder/attention.py
from __future__ import annotations

import torch
from torch import Tensor, nn
from torch.nn import functional as F


def rotate(q: Tensor, k: Tensor, start: int) -> tuple[Tensor, Tensor]:
    d = q.shape[-1]
    inv = 1.0 / (10000 ** (torch.arange(0, d, 2, device=q.device).float() / d))
    pos = torch.arange(start, start + q.shape[-2], device=q.device).float()
    ang = torch.outer(pos, inv)
    cos, sin = ang.cos().repeat_interleave(2, -1), ang.sin().repeat_interleave(2, -1)

    def apply(x: Tensor) -> Tensor:
        pairs = torch.stack((-x[..., 1::2], x[..., ::2]), dim=-1).flatten(-2)
        return x * cos + pairs * sin

    return apply(q), apply(k)


class CausalSelfAttention(nn.Module):
    def __init__(self, hidden_size: int, heads: int, dropout: float = 0.0) -> None:
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(hidden_size, 3 * hidden_size)
        self.proj = nn.Linear(hidden_size, hidden_size)
        self.dropout = nn.Dropout(dropout)

    def split(self, x: Tensor) -> Tensor:
        b, t, c = x.shape
        return x.view(b, t, self.heads, c // self.heads).transpose(1, 2)

    def forward(self, hidden: Tensor, past: tuple[Tensor, Tensor] | None = None, use_cache: bool = False):
        q, k, v = (self.split(t) for t in self.qkv(hidden).chunk(3, dim=-1))
        past_length = 0 if past is None else past[0].shape[-2]
        q, k = rotate(q, k, past_length)
        if past is not None:
            k, v = torch.cat((past[0], k), -2), torch.cat((past[1], v), -2)
            key_pos = torch.arange(k.shape[-2], device=k.device)
            allowed = key_pos <= past_length + torch.arange(q.shape[-2], device=q.device)[:, None]
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        else:
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        b, _, t, _ = out.shape
        out = self.dropout(self.proj(out.transpose(1, 2).contiguous().view(b, t, -1)))
        return (out, (k, v)) if use_cache else out
