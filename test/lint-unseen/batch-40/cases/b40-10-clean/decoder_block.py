# case: b40-10-clean
# modelled-on: JustArtiom/Osuformer https://github.com/JustArtiom/Osuformer/commit/96d726c7f1c83d7470fa379a845e0cc19c8c4018
# label: correct
# class: clean
# pattern: encoder-decoder generator with a per-layer KV cache (a folder): the attention module exposes its projections and an attend() that calls SDPA with is_causal when no padding mask is given and otherwise builds an additive float mask (padding -inf, plus a strict upper triangle when causal); the decoder block's training forward runs causal self-attention over the whole target, and its step() joins new keys and values after the cached ones, attending with is_causal=False when a cache exists and is_causal=True when it does not; the generator runs the prompt once without a cache and then feeds one token per step
# why: correct: a cached step always carries a single query (the generator feeds one token after the cache-free prompt), so it may see every cached key and is_causal=False is right, while the prompt, with no cache, has as many queries as keys and SDPA's top-left triangle is exact; in the padded path the causal triangle and the padding are both additive -inf terms and the diagonal is kept
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/JustArtiom/Osuformer https://github.com/JustArtiom/Osuformer/commit/96d726c7f1c83d7470fa379a845e0cc19c8c4018 src/model/decoder.py
from __future__ import annotations

from dataclasses import dataclass

import torch
from torch import Tensor, nn

from mha import SplitAttention


@dataclass
class LayerCache:
    self_kv: tuple[Tensor, Tensor] | None = None
    cross_kv: tuple[Tensor, Tensor] | None = None


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int, num_heads: int, ffn_dim: int, dropout: float):
        super().__init__()
        self.norm_self, self.norm_cross, self.norm_ffn = (nn.LayerNorm(d_model) for _ in range(3))
        self.self_attn = SplitAttention(d_model, num_heads, dropout=dropout)
        self.cross_attn = SplitAttention(d_model, num_heads, dropout=dropout)
        self.ffn = nn.Sequential(nn.Linear(d_model, ffn_dim), nn.SiLU(), nn.Dropout(dropout), nn.Linear(ffn_dim, d_model))
        self.drop = nn.Dropout(dropout)

    def forward(self, x: Tensor, memory: Tensor, tgt_pad: Tensor | None = None, memory_pad: Tensor | None = None) -> Tensor:
        h = self.norm_self(x)
        x = x + self.drop(self.self_attn(h, h, h, key_padding_mask=tgt_pad, is_causal=True))
        h = self.norm_cross(x)
        x = x + self.drop(self.cross_attn(h, memory, memory, key_padding_mask=memory_pad))
        return x + self.drop(self.ffn(self.norm_ffn(x)))

    def step(self, x: Tensor, memory: Tensor, cache: LayerCache, memory_pad: Tensor | None = None) -> tuple[Tensor, LayerCache]:
        h = self.norm_self(x)
        q = self.self_attn.project_q(h)
        k, v = self.self_attn.project_kv(h, h)
        if cache.self_kv is not None:
            k = torch.cat([cache.self_kv[0], k], dim=2)
            v = torch.cat([cache.self_kv[1], v], dim=2)
            x = x + self.drop(self.self_attn.attend(q, k, v, is_causal=False))
        else:
            x = x + self.drop(self.self_attn.attend(q, k, v, is_causal=True))

        h = self.norm_cross(x)
        ck, cv = cache.cross_kv if cache.cross_kv is not None else self.cross_attn.project_kv(memory, memory)
        x = x + self.drop(self.cross_attn.attend(self.cross_attn.project_q(h), ck, cv, key_padding_mask=memory_pad))
        x = x + self.drop(self.ffn(self.norm_ffn(x)))
        return x, LayerCache(self_kv=(k, v), cross_kv=(ck, cv))
