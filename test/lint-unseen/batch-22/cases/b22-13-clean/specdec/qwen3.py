# case: b22-13-clean
# modelled-on: shreyansh26/Speculative-Decoding https://github.com/shreyansh26/Speculative-Decoding/commit/76335be2f8f1a7bf25739310ae80435b83782b23
# label: correct
# class: clean
# pattern: a speculative-decoding testbed's own Qwen3 attention with a KV cache (torch.cat of cached keys): it builds a boolean keep mask key_positions <= query_positions with the query positions offset by the cache length and passes it to F.scaled_dot_product_attention with is_causal=False; the Medusa verifier (tree.py) builds a tree keep mask (identity, the root column and each node's ancestors), prepends an all-True block for the cached prefix and passes that to SDPA the same way
# why: correct: a boolean SDPA attn_mask is True where attention is allowed, and both masks are keep masks; offsetting the queries by past_len makes the causal mask bottom-right aligned, so new tokens see the whole cache and each other only up to themselves; every tree node sees the prefix, its ancestors and itself, never a sibling branch; is_causal stays False because the masks carry the causality
# looks-like: ATT002, ATT008
# source: https://github.com/shreyansh26/Speculative-Decoding https://github.com/shreyansh26/Speculative-Decoding/commit/76335be2f8f1a7bf25739310ae80435b83782b23 common/qwen3.py
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F


@dataclass
class LayerCache:
    key: torch.Tensor
    value: torch.Tensor


class Qwen3Attention(nn.Module):
    def __init__(self, config, rotary_emb, apply_rotary):
        super().__init__()
        self.num_attention_heads = config.num_attention_heads
        self.num_key_value_heads = config.num_key_value_heads
        self.num_queries_per_kv = self.num_attention_heads // self.num_key_value_heads
        self.head_dim = config.head_dim
        self.q_proj = nn.Linear(config.hidden_size, self.num_attention_heads * self.head_dim, bias=True)
        self.k_proj = nn.Linear(config.hidden_size, self.num_key_value_heads * self.head_dim, bias=True)
        self.v_proj = nn.Linear(config.hidden_size, self.num_key_value_heads * self.head_dim, bias=True)
        self.o_proj = nn.Linear(self.num_attention_heads * self.head_dim, config.hidden_size, bias=False)
        self.rotary_emb = rotary_emb
        self.apply_rotary = apply_rotary

    def _reshape(self, t: torch.Tensor, num_heads: int) -> torch.Tensor:
        b, s, _ = t.shape
        return t.view(b, s, num_heads, self.head_dim).transpose(1, 2)

    def forward(self, hidden_states, position_ids, layer_cache: LayerCache | None = None):
        batch_size, query_len, _ = hidden_states.shape
        query = self._reshape(self.q_proj(hidden_states), self.num_attention_heads)
        key = self._reshape(self.k_proj(hidden_states), self.num_key_value_heads)
        value = self._reshape(self.v_proj(hidden_states), self.num_key_value_heads)
        cos, sin = self.rotary_emb(position_ids)
        query, key = self.apply_rotary(query, key, cos, sin)

        if layer_cache is not None:
            key = torch.cat([layer_cache.key, key], dim=2)
            value = torch.cat([layer_cache.value, value], dim=2)
        updated_cache = LayerCache(key=key, value=value)

        if self.num_queries_per_kv > 1:
            key = key.repeat_interleave(self.num_queries_per_kv, dim=1)
            value = value.repeat_interleave(self.num_queries_per_kv, dim=1)
        key_len = key.shape[2]
        past_len = key_len - query_len
        query_positions = torch.arange(past_len, past_len + query_len, device=hidden_states.device).unsqueeze(-1)
        key_positions = torch.arange(key_len, device=hidden_states.device).unsqueeze(0)
        attn_mask = key_positions <= query_positions
        attn_mask = attn_mask.unsqueeze(0).unsqueeze(0)

        out = F.scaled_dot_product_attention(query, key, value, attn_mask=attn_mask, dropout_p=0.0, is_causal=False)
        out = out.transpose(1, 2).contiguous().view(batch_size, query_len, self.num_attention_heads * self.head_dim)
        return self.o_proj(out), updated_cache
