# case: b19-07-clean
# modelled-on: Alas129/transformer-playground https://github.com/Alas129/transformer-playground/commit/f31441e928db1fcd9765510455eb83695fb9f0b4
# label: correct
# class: clean
# pattern: a teaching LLaMA-style decoder: grouped-query attention with rotary embeddings (another module; the rotary offset is the cache length) and an optional KV cache; new keys and values are concatenated after the cached ones, repeated per query group with repeat_interleave, scores are q @ k^T / sqrt(d_k), and the causal mask is a boolean keep matrix torch.ones(T, total).tril(diagonal=total - T), applied with masked_fill(~allowed, -inf) before the softmax over the keys; the model's generate loop feeds only the newest token once a cache exists
# why: correct: with past_len cached keys, query t (absolute position past_len + t) may see keys 0 .. past_len + t, which is exactly tril(diagonal=total - T) (total - T = past_len); for the one-token decode step the row is all True, for the prompt pass it is the ordinary causal mask; ~allowed inverts the keep mask into the positions to fill, and every row keeps its diagonal, so no row is all -inf; d_k is the per-head width
# looks-like: ATT002, ATT004, ATT005, ATT007, ATT008
# source: https://github.com/Alas129/transformer-playground https://github.com/Alas129/transformer-playground/commit/f31441e928db1fcd9765510455eb83695fb9f0b4 src/modern.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .rotary import Rotary, rotate


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads=None, max_len=4096, dropout=0.0):
        super().__init__()
        num_kv_heads = num_heads if num_kv_heads is None else num_kv_heads
        assert d_model % num_heads == 0 and num_heads % num_kv_heads == 0
        self.num_heads, self.num_kv_heads = num_heads, num_kv_heads
        self.d_k = d_model // num_heads
        self.groups = num_heads // num_kv_heads
        self.W_q = nn.Linear(d_model, num_heads * self.d_k, bias=False)
        self.W_k = nn.Linear(d_model, num_kv_heads * self.d_k, bias=False)
        self.W_v = nn.Linear(d_model, num_kv_heads * self.d_k, bias=False)
        self.W_o = nn.Linear(num_heads * self.d_k, d_model, bias=False)
        self.rope = Rotary(self.d_k, max_len)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, past_kv=None, use_cache=False):
        B, T, _ = x.shape
        past_len = 0 if past_kv is None else past_kv[0].size(2)
        q = self.W_q(x).view(B, T, self.num_heads, self.d_k).transpose(1, 2)
        k = self.W_k(x).view(B, T, self.num_kv_heads, self.d_k).transpose(1, 2)
        v = self.W_v(x).view(B, T, self.num_kv_heads, self.d_k).transpose(1, 2)
        cos, sin = self.rope(T, offset=past_len)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=2)
            v = torch.cat([past_kv[1], v], dim=2)
        present = (k, v) if use_cache else None

        k_all = k.repeat_interleave(self.groups, dim=1)
        v_all = v.repeat_interleave(self.groups, dim=1)
        total = k_all.size(2)
        scores = torch.matmul(q, k_all.transpose(-2, -1)) / math.sqrt(self.d_k)
        allowed = torch.ones(T, total, dtype=torch.bool, device=x.device).tril(diagonal=total - T)
        scores = scores.masked_fill(~allowed, float("-inf"))
        weights = self.drop(F.softmax(scores, dim=-1))
        out = torch.matmul(weights, v_all).transpose(1, 2).contiguous().view(B, T, self.num_heads * self.d_k)
        return self.W_o(out), present
