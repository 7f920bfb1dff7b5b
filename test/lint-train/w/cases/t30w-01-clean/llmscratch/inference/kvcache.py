"""Single-sequence decoding against a growing key/value cache.

The prefill keys come from a full forward pass over the prompt; each decoding step
computes q, k, v for the one new token, appends k and v with cache_kv_pair, and then
attends with the new query over everything cached so far.
"""
import torch
from einops import einsum, rearrange
from torch import Tensor


class KVCache:
    def __init__(self, prefill_keys: Tensor, prefill_values: Tensor) -> None:
        # prefill_keys: (batch, seq, qk_dim), prefill_values: (batch, seq, v_dim)
        self.keys = prefill_keys
        self.values = prefill_values

    def cache_kv_pair(self, k: Tensor, v: Tensor) -> None:
        """k: (batch, qk_dim), already rotated if RoPE is used; v: (batch, v_dim)."""
        k = rearrange(k, "batch d -> batch 1 d")
        v = rearrange(v, "batch d -> batch 1 d")
        self.keys = torch.cat([self.keys, k], dim=1).contiguous()
        self.values = torch.cat([self.values, v], dim=1).contiguous()

    def compute_attention(self, q: Tensor) -> Tensor:
        """q: (batch, qk_dim), the newest token's query; call after cache_kv_pair."""
        scores = einsum(q, self.keys, "batch d, batch seq d -> batch seq")
        scores = scores * q.shape[-1] ** -0.5
        scores = scores - scores.max(dim=-1, keepdim=True).values
        weights = torch.softmax(scores, dim=-1)
        return einsum(weights, self.values, "batch seq, batch seq d -> batch d")


def decode_step(cache: KVCache, q: Tensor, k: Tensor, v: Tensor) -> Tensor:
    cache.cache_kv_pair(k, v)
    return cache.compute_attention(q)
