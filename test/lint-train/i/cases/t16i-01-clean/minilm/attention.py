# case: t16i-01-clean
# modelled-on: eric-houzelle/mini-gpt https://github.com/eric-houzelle/mini-gpt/commit/3a709b3
# label: correct
# class: clean
# pattern: a small French GPT (HF PreTrainedModel wrapper) with grouped-query attention and RoPE; the attention module concatenates a cached (k, v) pair along the time axis and calls SDPA with is_causal=(past_kv is None), i.e. causal only when there is no cache; the HF wrapper's prepare_inputs_for_generation (other file) feeds only the last token once a cache exists, and the prompt is run once without a cache
# why: correct: with a cache the query is a single new token, which may attend to every cached key (no causal mask is needed, and SDPA's top-left causal mask would wrongly hide all but the first key); without a cache the full sequence is causal; the cache path never sees more than one query
# looks-like: ATT008
# source: https://github.com/eric-houzelle/mini-gpt https://github.com/eric-houzelle/mini-gpt/commit/3a709b3 model/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class GroupedSelfAttention(nn.Module):
    def __init__(self, dim, n_heads, dropout, n_kv_heads=None, rope=None):
        super().__init__()
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads or n_heads
        self.head_dim = dim // n_heads
        self.groups = self.n_heads // self.n_kv_heads
        self.wq = nn.Linear(dim, n_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(dim, self.n_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(dim, self.n_kv_heads * self.head_dim, bias=False)
        self.proj = nn.Linear(dim, dim, bias=False)
        self.p_drop = dropout
        self.rope = rope

    def forward(self, x, past_kv=None, use_cache=False):
        B, T, C = x.size()
        q = self.wq(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(B, T, self.n_kv_heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(B, T, self.n_kv_heads, self.head_dim).transpose(1, 2)

        if self.rope is not None:
            start = past_kv[0].shape[2] if past_kv is not None else 0
            q, k = self.rope(q, k, offset=start)

        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=2)
            v = torch.cat([past_kv[1], v], dim=2)
        present = (k, v) if use_cache else None

        if self.groups > 1:
            k_all = k.repeat_interleave(self.groups, dim=1)
            v_all = v.repeat_interleave(self.groups, dim=1)
        else:
            k_all, v_all = k, v

        causal = past_kv is None
        y = F.scaled_dot_product_attention(
            q, k_all, v_all,
            attn_mask=None,
            is_causal=causal,
            dropout_p=self.p_drop if self.training else 0.0,
        )
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(y), present
