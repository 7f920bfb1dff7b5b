# case: t27t-01-clean
# modelled-on: ricklamers/kvcache-exploration https://github.com/ricklamers/kvcache-exploration/commit/de4f10d75f323b6b32894b1224783c16d1fe9dcb
# label: correct
# class: clean
# pattern: a from-scratch Qwen3-style decoder with a preallocated KV cache in another module (append returns every key stored so far); the attention calls F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=is_causal) with is_causal = attn_mask is None and q.shape[-2] == k.shape[-2] and q.shape[-2] > 1; the model builds no mask for one new token, none for a prefill into an empty cache, and for several new tokens over a non-empty cache an additive float mask from absolute positions (allowed = k_pos <= q_start + i, zeros filled with torch.finfo(dtype).min where ~allowed); the generation module prefills at position 0 and then decodes one token per step, with the model and the cache in float16
# why: correct: is_causal is only switched on when queries and keys have the same length (a prefill into an empty cache or the uncached forward), where the top-left triangle is the right causal mask; a one-token decode step attends to every cached key, which is right; several new tokens over cached keys get the bottom-right-aligned mask built from absolute positions (True = allowed, inverted with ~ for the fill, so the fill lands on future keys); the fill is finfo(dtype).min of the model dtype, finite in float16, and every query row keeps at least its own key
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/ricklamers/kvcache-exploration https://github.com/ricklamers/kvcache-exploration/commit/de4f10d75f323b6b32894b1224783c16d1fe9dcb src/kvcache_explored/model.py
from __future__ import annotations

from dataclasses import dataclass

import torch
import torch.nn.functional as F
from torch import Tensor, nn


@dataclass(frozen=True)
class TinyQwenConfig:
    vocab_size: int = 32_000
    hidden_size: int = 512
    num_layers: int = 8
    num_heads: int = 8
    num_kv_heads: int = 4
    head_dim: int = 64
    max_seq_len: int = 4096
    rms_norm_eps: float = 1e-6


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float) -> None:
        super().__init__()
        self.weight = nn.Parameter(torch.ones(dim))
        self.eps = eps

    def forward(self, x: Tensor) -> Tensor:
        x32 = x.float()
        x32 = x32 * torch.rsqrt(x32.pow(2).mean(-1, keepdim=True) + self.eps)
        return x32.to(x.dtype) * self.weight


class Attention(nn.Module):
    def __init__(self, cfg: TinyQwenConfig) -> None:
        super().__init__()
        self.h, self.hkv, self.d = cfg.num_heads, cfg.num_kv_heads, cfg.head_dim
        self.q_proj = nn.Linear(cfg.hidden_size, self.h * self.d, bias=False)
        self.k_proj = nn.Linear(cfg.hidden_size, self.hkv * self.d, bias=False)
        self.v_proj = nn.Linear(cfg.hidden_size, self.hkv * self.d, bias=False)
        self.o_proj = nn.Linear(self.h * self.d, cfg.hidden_size, bias=False)
        self.q_norm = RMSNorm(self.d, cfg.rms_norm_eps)
        self.k_norm = RMSNorm(self.d, cfg.rms_norm_eps)

    def forward(self, x: Tensor, attn_mask: Tensor | None, cache=None, layer_idx: int = 0) -> Tensor:
        B, T, _ = x.shape
        q = self.q_norm(self.q_proj(x).view(B, T, self.h, self.d).transpose(1, 2))      # (B, H, T, D)
        k = self.k_norm(self.k_proj(x).view(B, T, self.hkv, self.d).transpose(1, 2))    # (B, Hkv, T, D)
        v = self.v_proj(x).view(B, T, self.hkv, self.d).transpose(1, 2)
        if cache is not None:
            k, v = cache.append(layer_idx, k, v)  # (B, Hkv, S, D), S = cached + T
        rep = self.h // self.hkv
        k = k.repeat_interleave(rep, dim=1)
        v = v.repeat_interleave(rep, dim=1)
        # is_causal only where the queries and keys have the same length; a single new token
        # sees the whole prefix, and several new tokens over a filled cache bring their own mask
        is_causal = attn_mask is None and q.shape[-2] == k.shape[-2] and q.shape[-2] > 1
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask, is_causal=is_causal)
        return self.o_proj(out.transpose(1, 2).reshape(B, T, self.h * self.d))


class Block(nn.Module):
    def __init__(self, cfg: TinyQwenConfig) -> None:
        super().__init__()
        self.ln1 = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.attn = Attention(cfg)
        self.ln2 = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.mlp = nn.Sequential(nn.Linear(cfg.hidden_size, 4 * cfg.hidden_size), nn.SiLU(),
                                 nn.Linear(4 * cfg.hidden_size, cfg.hidden_size))

    def forward(self, x: Tensor, attn_mask: Tensor | None, cache, layer_idx: int) -> Tensor:
        x = x + self.attn(self.ln1(x), attn_mask, cache, layer_idx)
        return x + self.mlp(self.ln2(x))


def causal_mask_from(q_len: int, kv_len: int, q_start: int, dtype: torch.dtype) -> Tensor:
    """Additive mask (q_len, kv_len): 0 where the query may look, the dtype's minimum elsewhere.

    Query i sits at absolute position q_start + i and may see every key j <= q_start + i.
    """
    q_pos = torch.arange(q_len) + q_start
    k_pos = torch.arange(kv_len)
    allowed = k_pos[None, :] <= q_pos[:, None]  # True = may attend
    mask = torch.zeros(q_len, kv_len, dtype=dtype)
    mask.masked_fill_(~allowed, torch.finfo(dtype).min)
    return mask


class TinyQwen(nn.Module):
    def __init__(self, cfg: TinyQwenConfig) -> None:
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.hidden_size)
        self.layers = nn.ModuleList([Block(cfg) for _ in range(cfg.num_layers)])
        self.norm = RMSNorm(cfg.hidden_size, cfg.rms_norm_eps)
        self.lm_head = nn.Linear(cfg.hidden_size, cfg.vocab_size, bias=False)

    def forward(self, input_ids: Tensor, start_pos: int = 0, cache=None) -> Tensor:
        B, T = input_ids.shape
        x = self.embed(input_ids)
        attn_mask = None
        if T > 1 and cache is not None and cache.length > 0:
            # a new chunk of several tokens on top of cached ones: bottom-right-aligned mask
            attn_mask = causal_mask_from(T, cache.length + T, start_pos, x.dtype)
        for i, layer in enumerate(self.layers):
            x = layer(x, attn_mask, cache, i)
        return self.lm_head(self.norm(x))
