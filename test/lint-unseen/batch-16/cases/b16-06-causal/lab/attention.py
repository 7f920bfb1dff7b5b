# case: b16-06-causal
# modelled-on: psandev/my-miniGPT https://github.com/psandev/my-miniGPT/commit/8a22439968a5e1dde5da12ddd0301f3de54127da
# label: buggy
# class: real-bug
# pattern: a configurable small LM (GQA, RoPE or ALiBi): the attention takes an optional boolean mask (True = masked, documented) and an optional (k, v) cache concatenated along time; with a mask it builds an additive float mask with masked_fill(..., -inf) on the last S rows, without one it passes attn_mask=None and is_causal=(attn_mask is None); the model's forward_with_cache (other module) passes attention_mask=None, and generation calls it once on the prompt and then with one new token and the cache
# why: buggy: on every decode step the attention gets S = 1 query, L cached keys, no mask and is_causal=True; SDPA aligns its causal mask to the top-left corner, so the single query attends to the first cached token only instead of the whole prefix (the training forward builds its own triu mask and is unaffected, the prefill step is square and correct); a decode step needs is_causal=False or a bottom-right mask; never fixed
# source: https://github.com/psandev/my-miniGPT https://github.com/psandev/my-miniGPT/commit/8a22439968a5e1dde5da12ddd0301f3de54127da miniGPT/modules/attention.py
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_model, n_heads, n_kv_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.head_dim = d_model // n_heads
        self.n_groups = n_heads // n_kv_heads
        self.q_proj = nn.Linear(d_model, n_heads * self.head_dim, bias=False)
        self.k_proj = nn.Linear(d_model, n_kv_heads * self.head_dim, bias=False)
        self.v_proj = nn.Linear(d_model, n_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(n_heads * self.head_dim, d_model, bias=False)
        self.dropout = dropout

    def forward(self, x, rope=None, attention_mask: Optional[torch.Tensor] = None, kv_cache=None, positions=None):
        """attention_mask: bool (B, 1, S, S) or (B, 1, 1, S); True positions are masked."""
        B, S, _ = x.shape
        q = self.q_proj(x).view(B, S, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, S, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, S, self.n_kv_heads, self.head_dim).transpose(1, 2)
        if rope is not None:
            q, k = rope(q, k, positions)
        if kv_cache is not None:
            k = torch.cat([kv_cache[0], k], dim=2)
            v = torch.cat([kv_cache[1], v], dim=2)
        new_kv_cache = (k, v)
        if self.n_kv_heads != self.n_heads:
            k = k.repeat_interleave(self.n_groups, dim=1)
            v = v.repeat_interleave(self.n_groups, dim=1)

        attn_mask = None
        if attention_mask is not None:
            attn_mask = torch.zeros(B, 1, S, k.size(2), dtype=q.dtype, device=q.device)
            attn_mask = attn_mask.masked_fill(attention_mask[:, :, -S:, : k.size(2)], float("-inf"))

        out = F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=attn_mask,
            dropout_p=self.dropout if self.training else 0.0,
            is_causal=(attn_mask is None),  # expect: ATT008
        )
        out = out.transpose(1, 2).contiguous().view(B, S, -1)
        return self.o_proj(out), new_kv_cache
