# case: t13f-02-clean
# modelled-on: drboo/llm-from-scratch https://github.com/drboo/llm-from-scratch/commit/8fa14150e7a7b1eca520c2ad070074bac6d9901b
# label: correct
# class: clean
# pattern: a day-by-day LLM build: grouped-query attention with RoPE, a training forward that calls SDPA with is_causal=True (or, for verification, adds an additive triu(full(-inf), 1) mask from another module and scales by math.sqrt(d_head)), and a cached forward that writes K and V into a preallocated cache at start_pos, reads the prefix back, expands the KV heads and calls SDPA with is_causal=(T > 1), after asserting that a multi-token call only happens at start_pos == 0
# why: correct: on the cached path a multi-token call is a full prefill (start_pos == 0, so queries and keys have the same length and SDPA's top-left causal mask is the right one), and a decode step has T == 1, where is_causal=False lets the single query see the whole prefix, which is exactly causal; the assert rules out chunked prefill, the one case where top-left alignment would be wrong; the additive mask has -inf strictly above the diagonal; what a naive linter could misread: ATT008 (is_causal computed from T with a KV cache), ATT002 (an additive triu mask built in another module), ATT007 (-inf in the mask), ATT004 (math.sqrt(d_head) with d_head = d_model // n_head)
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/drboo/llm-from-scratch https://github.com/drboo/llm-from-scratch/commit/8fa14150e7a7b1eca520c2ad070074bac6d9901b model/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from model.masks import causal_mask


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model: int, n_head: int, n_kv_head: int = 0):
        super().__init__()
        n_kv_head = n_kv_head or n_head
        self.n_head, self.n_kv_head = n_head, n_kv_head
        self.n_groups = n_head // n_kv_head
        self.d_head = d_model // n_head
        self.d_model = d_model
        self.qkv_proj = nn.Linear(d_model, (n_head + 2 * n_kv_head) * self.d_head, bias=False)
        self.out_proj = nn.Linear(d_model, d_model, bias=False)

    def _project(self, x, B, T):
        q_dim, kv_dim = self.n_head * self.d_head, self.n_kv_head * self.d_head
        Q, K, V = self.qkv_proj(x).split([q_dim, kv_dim, kv_dim], dim=-1)
        Q = Q.view(B, T, self.n_head, self.d_head).transpose(1, 2)
        K = K.view(B, T, self.n_kv_head, self.d_head).transpose(1, 2)
        V = V.view(B, T, self.n_kv_head, self.d_head).transpose(1, 2)
        return Q, K, V

    def _expand(self, K, V):
        if self.n_groups == 1:
            return K, V
        return K.repeat_interleave(self.n_groups, dim=1), V.repeat_interleave(self.n_groups, dim=1)

    def _manual(self, Q, K, V):
        T = Q.size(2)
        scores = (Q @ K.transpose(-2, -1)) / math.sqrt(self.d_head)
        scores = scores + causal_mask(T, device=Q.device)
        return F.softmax(scores.float(), dim=-1).to(Q.dtype) @ V

    def forward(self, x, use_flash: bool = True):
        B, T, _ = x.shape
        Q, K, V = self._project(x, B, T)
        K, V = self._expand(K, V)
        out = F.scaled_dot_product_attention(Q, K, V, is_causal=True) if use_flash else self._manual(Q, K, V)
        return self.out_proj(out.transpose(1, 2).contiguous().view(B, T, self.d_model))

    def forward_cached(self, x, start_pos: int, k_cache, v_cache):
        B, T, _ = x.shape
        Q, K, V = self._project(x, B, T)
        # a chunked prefill (start_pos > 0 and T > 1) would need a bottom-right aligned mask
        assert start_pos == 0 or T == 1, "only full prefill or single-token decode"
        k_cache[:, :, start_pos : start_pos + T, :] = K
        v_cache[:, :, start_pos : start_pos + T, :] = V
        K_ctx, V_ctx = self._expand(k_cache[:, :, : start_pos + T, :], v_cache[:, :, : start_pos + T, :])
        out = F.scaled_dot_product_attention(Q, K_ctx, V_ctx, is_causal=(T > 1))
        return self.out_proj(out.transpose(1, 2).contiguous().view(B, T, self.d_model))
