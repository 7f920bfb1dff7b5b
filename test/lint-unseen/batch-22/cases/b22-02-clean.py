# case: b22-02-clean
# modelled-on: bthitzepw/Mini-LLM https://github.com/bthitzepw/Mini-LLM/commit/710bed313056c8e57c9023b7ae3452a80ad35941
# label: correct
# class: clean
# pattern: a small code model's attention with a tuple KV cache appended by torch.cat on the key axis; the scale is sqrt(head_dim) kept in self.scale and divided; a caller's mask (a 2-D keep mask unsqueezed to (B, 1, 1, S), or a 4-D one) is applied with masked_fill(mask == 0, -inf); with no mask it builds its own causal mask torch.triu(ones(q_len, kv_len, bool), diagonal=kv_len - q_len + 1) and fills where it is True
# why: correct: mask == 0 selects the positions a keep mask hides; the diagonal kv_len - q_len + 1 aligns the causal mask to the bottom right, so with a cache each new query sees every cached key and itself but no later key (with no cache it is the usual diagonal=1); -inf is safe since every row keeps at least its own key
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/bthitzepw/Mini-LLM https://github.com/bthitzepw/Mini-LLM/commit/710bed313056c8e57c9023b7ae3452a80ad35941 src/model.py
import math

import torch
import torch.nn as nn


class CachedAttention(nn.Module):
    """Multi-head attention with RoPE and an optional KV cache."""

    def __init__(self, config, rope=None):
        super().__init__()
        self.num_heads = config.num_heads
        self.head_dim = config.hidden_size // config.num_heads
        self.hidden_size = config.hidden_size
        self.q_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.k_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.v_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.out_proj = nn.Linear(config.hidden_size, config.hidden_size)
        self.dropout = nn.Dropout(config.dropout)
        self.scale = math.sqrt(self.head_dim)
        self.rope = rope

    def forward(self, query, key=None, value=None, attention_mask=None, kv_cache=None, use_cache=False):
        """
        query: (batch, q_len, hidden); key/value: same, or None to reuse query
        attention_mask: (batch, kv_len) keep mask or (batch, 1, q_len, kv_len); None means causal
        kv_cache: (past_k, past_v) from the previous step
        """
        batch, q_len, _ = query.size()
        q = self.q_proj(query).view(batch, q_len, self.num_heads, self.head_dim).transpose(1, 2)
        k_in = key if key is not None else query
        v_in = value if value is not None else query
        k = self.k_proj(k_in).view(batch, -1, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(v_in).view(batch, -1, self.num_heads, self.head_dim).transpose(1, 2)

        if self.rope is not None:
            cos, sin = self.rope(q, seq_len=q_len)
            q, k = self.rope.apply(q, k, cos, sin)

        if kv_cache is not None:
            past_k, past_v = kv_cache
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
        new_cache = (k, v) if use_cache else None

        kv_len = k.size(2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / self.scale

        if attention_mask is not None:
            if attention_mask.dim() == 2:
                attention_mask = attention_mask.unsqueeze(1).unsqueeze(2)
            scores = scores.masked_fill(attention_mask == 0, float("-inf"))
        else:
            causal = torch.triu(
                torch.ones(q_len, kv_len, device=query.device, dtype=torch.bool),
                diagonal=kv_len - q_len + 1,
            )
            scores = scores.masked_fill(causal.unsqueeze(0).unsqueeze(0), float("-inf"))

        weights = torch.softmax(scores, dim=-1)
        weights = self.dropout(weights)
        context = torch.matmul(weights, v).transpose(1, 2).contiguous().view(batch, q_len, self.hidden_size)
        out = self.out_proj(context)
        if use_cache:
            return out, new_cache
        return out
