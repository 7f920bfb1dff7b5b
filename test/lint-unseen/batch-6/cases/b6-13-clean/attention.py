# case: b6-13-clean
# modelled-on: H0rvex/transformer-from-scratch https://github.com/H0rvex/transformer-from-scratch/commit/6ce68024fb67572fd2bdd9abd50e57ceca195a29
# label: correct
# class: clean
# pattern: a decoder-only model's attention with RoPE (position offset), grouped-query heads and a KV cache: SDPA gets is_causal only when there is no cache (causal_use = is_causal and past_kv is None), and a causal step after cached keys is routed to a manual path that adds a bias built from absolute positions (key j allowed when j <= i + cache_len) before the softmax over the keys; the sampling loop in another module prefills the prompt and then feeds one token per step
# why: correct: is_causal=True only ever meets equal query and key lengths, where its top-left alignment is right; after cached keys the bias aligns each new query bottom-right over the whole cache; the manual path scales by sqrt(head_dim) and fills with -inf before the softmax over the last axis
# looks-like: ATT002, ATT003, ATT006, ATT007, ATT008
# source: https://github.com/H0rvex/transformer-from-scratch https://github.com/H0rvex/transformer-from-scratch/commit/6ce68024fb67572fd2bdd9abd50e57ceca195a29 src/transformer/models/attention.py
import math

import torch
import torch.nn.functional as F
from torch import Tensor, nn


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads, rope=None, dropout_p=0.0):
        super().__init__()
        self.d_model, self.num_heads, self.num_kv_heads = d_model, num_heads, num_kv_heads
        self.head_dim = d_model // num_heads
        self.W_q = nn.Linear(d_model, num_heads * self.head_dim, bias=False)
        self.W_k = nn.Linear(d_model, num_kv_heads * self.head_dim, bias=False)
        self.W_v = nn.Linear(d_model, num_kv_heads * self.head_dim, bias=False)
        self.W_o = nn.Linear(d_model, d_model, bias=False)
        self.rope = rope
        self.dropout_p = dropout_p

    def _split(self, x, n):
        b, t, _ = x.shape
        return x.view(b, t, n, self.head_dim).transpose(1, 2)  # (b, n, t, hd)

    def _causal_extended_bias(self, cache_len, t_q, t_k, device, dtype):
        qi = torch.arange(t_q, device=device).unsqueeze(1) + cache_len
        kj = torch.arange(t_k, device=device).unsqueeze(0)
        bias = torch.zeros(t_q, t_k, device=device, dtype=dtype)
        bias.masked_fill_(~(kj <= qi), float("-inf"))
        return bias.view(1, 1, t_q, t_k)

    def _forward_manual(self, q, k, v, is_causal, cache_len):
        t_q, t_k = q.shape[-2], k.shape[-2]
        scores = (q @ k.transpose(-2, -1)) / math.sqrt(q.shape[-1])  # (b, h, t_q, t_k)
        if is_causal:
            scores = scores + self._causal_extended_bias(cache_len, t_q, t_k, q.device, scores.dtype)
        weights = F.softmax(scores, dim=-1)
        return weights @ v

    def forward(self, x: Tensor, is_causal=False, past_kv=None, cache_len=0, use_cache=False):
        b, t, _ = x.shape
        q = self._split(self.W_q(x), self.num_heads)
        k_new = self._split(self.W_k(x), self.num_kv_heads)
        v_new = self._split(self.W_v(x), self.num_kv_heads)
        if self.rope is not None:
            q, k_new = self.rope(q, k_new, position_offset=cache_len)
        if past_kv is not None:
            k_cat = torch.cat([past_kv[0], k_new], dim=2)
            v_cat = torch.cat([past_kv[1], v_new], dim=2)
        else:
            k_cat, v_cat = k_new, v_new
        store_kv = (k_cat, v_cat) if use_cache else None
        r = self.num_heads // self.num_kv_heads
        k_rep, v_rep = k_cat.repeat_interleave(r, dim=1), v_cat.repeat_interleave(r, dim=1)

        causal_use = is_causal and past_kv is None
        if past_kv is not None and is_causal:
            out = self._forward_manual(q, k_rep, v_rep, is_causal, cache_len)
        else:
            dropout_p = self.dropout_p if self.training else 0.0
            out = F.scaled_dot_product_attention(q, k_rep, v_rep, dropout_p=dropout_p, is_causal=causal_use)
        out = self.W_o(out.transpose(1, 2).contiguous().view(b, t, self.d_model))
        return (out, store_kv) if use_cache else out
