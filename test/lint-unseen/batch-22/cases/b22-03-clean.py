# case: b22-03-clean
# modelled-on: happydog-intj/mini-vllm-tutorial https://github.com/happydog-intj/mini-vllm-tutorial/commit/aad4a4790435ecc7db45cecb30a21015c4dfa18e
# label: correct
# class: clean
# pattern: a step-by-step serving tutorial's single-request attention with a KV cache, on unbatched (seq_len, d_model) inputs: past keys and values are concatenated on axis 0, each head is computed in a Python loop with q_h @ k_h.T / sqrt(d_head) on 2-D (tokens, d_head) slices, and the causal mask is built row by row as a boolean tensor that is True (hidden) except for mask[i, :past_len + i + 1], then filled with -inf before softmax(dim=-1)
# why: correct: .T of a 2-D (total_len, d_head) slice is the key transpose; the mask hides exactly the keys after each new query's absolute position past_len + i, so it is bottom-right aligned and works for prefill (past_len = 0) and for decode steps on the cache; every row keeps at least the prefix and itself, so -inf never empties a row
# looks-like: ATT002, ATT005, ATT007, ATT008
# source: https://github.com/happydog-intj/mini-vllm-tutorial https://github.com/happydog-intj/mini-vllm-tutorial/commit/aad4a4790435ecc7db45cecb30a21015c4dfa18e step07_kvcache_for_single_request/model.py
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn
from torch import Tensor

KVCache = Tuple[Tensor, Tensor]


class MultiHeadAttentionWithKV(nn.Module):
    """Prefill (past_kv=None) computes every token's K/V; decode appends the new token's K/V to the cache."""

    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_head = d_model // num_heads
        self.W_q = nn.Linear(d_model, d_model, bias=False)
        self.W_k = nn.Linear(d_model, d_model, bias=False)
        self.W_v = nn.Linear(d_model, d_model, bias=False)
        self.W_o = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x: Tensor, past_kv: Optional[KVCache] = None) -> Tuple[Tensor, KVCache]:
        """x: (seq_len, d_model)"""
        seq_len = x.size(0)
        Q = self.W_q(x).view(seq_len, self.num_heads, self.d_head)
        K = self.W_k(x).view(seq_len, self.num_heads, self.d_head)
        V = self.W_v(x).view(seq_len, self.num_heads, self.d_head)
        if past_kv is not None:
            K_full = torch.cat([past_kv[0], K], dim=0)
            V_full = torch.cat([past_kv[1], V], dim=0)
        else:
            K_full, V_full = K, V
        total_len = K_full.size(0)

        outputs = []
        for h in range(self.num_heads):
            q_h = Q[:, h, :]  # (seq_len, d_head)
            k_h = K_full[:, h, :]  # (total_len, d_head)
            v_h = V_full[:, h, :]
            scores = torch.matmul(q_h, k_h.T) / math.sqrt(self.d_head)  # (seq_len, total_len)
            past_len = total_len - seq_len
            mask = torch.ones(seq_len, total_len, dtype=torch.bool, device=x.device)
            for i in range(seq_len):
                mask[i, : past_len + i + 1] = False
            scores = scores.masked_fill(mask, float("-inf"))
            weights = torch.softmax(scores, dim=-1)
            outputs.append(torch.matmul(weights, v_h))
        return self.W_o(torch.cat(outputs, dim=-1)), (K_full, V_full)
