# case: b7-17-clean
# modelled-on: PauloHFS/gpt2-from-scratch https://github.com/PauloHFS/gpt2-from-scratch/commit/03d365a2eef14a654e7fbbd678f7bcd331cf14f5
# label: correct
# class: clean
# pattern: a Qwen3-style grouped-query attention from a from-scratch LLM book: queries (b, heads, T, head_dim), keys and values (b, kv_groups, T, head_dim) with optional RMSNorm on q and k, RoPE from cos/sin tables passed in, keys and values repeated with repeat_interleave(group_size, dim=1), and the boolean mask built by the model in another file (triu(ones, diagonal=1), True = future) filled with -inf; the scores are divided by head_dim ** 0.5 inside the softmax
# why: correct: the mask is True above the diagonal and masked_fill fills where True, the scale is the per-head width (head_dim may be set apart from d_in), the K/V heads are repeated head-major to match the query heads, and the softmax runs over the keys
# looks-like: ATT002, ATT003, ATT004, ATT005, ATT007
# source: https://github.com/PauloHFS/gpt2-from-scratch https://github.com/PauloHFS/gpt2-from-scratch/commit/03d365a2eef14a654e7fbbd678f7bcd331cf14f5 src/gptmodel/grouped_query_attention.py
import torch
from torch import nn


class RMSNorm(nn.Module):
    def __init__(self, dim, eps=1e-6):
        super().__init__()
        self.eps = eps
        self.scale = nn.Parameter(torch.ones(dim))

    def forward(self, x):
        return x * torch.rsqrt(x.pow(2).mean(-1, keepdim=True) + self.eps) * self.scale


def apply_rope(x, cos, sin):
    # x: (b, heads, T, head_dim); cos, sin: (context, head_dim)
    T, hd = x.shape[2], x.shape[3]
    x1, x2 = x[..., : hd // 2], x[..., hd // 2 :]
    rotated = torch.cat((-x2, x1), dim=-1)
    return x * cos[:T][None, None] + rotated * sin[:T][None, None]


class GroupedQueryAttention(nn.Module):
    def __init__(self, d_in, num_heads, num_kv_groups, head_dim=None, qk_norm=False):
        super().__init__()
        assert num_heads % num_kv_groups == 0, "num_heads must be divisible by num_kv_groups"
        self.num_heads, self.num_kv_groups = num_heads, num_kv_groups
        self.group_size = num_heads // num_kv_groups
        if head_dim is None:
            assert d_in % num_heads == 0
            head_dim = d_in // num_heads
        self.head_dim = head_dim
        self.d_out = num_heads * head_dim
        self.W_query = nn.Linear(d_in, self.d_out, bias=False)
        self.W_key = nn.Linear(d_in, num_kv_groups * head_dim, bias=False)
        self.W_value = nn.Linear(d_in, num_kv_groups * head_dim, bias=False)
        self.out_proj = nn.Linear(self.d_out, d_in, bias=False)
        self.q_norm = RMSNorm(head_dim) if qk_norm else None
        self.k_norm = RMSNorm(head_dim) if qk_norm else None

    def forward(self, x, mask, cos, sin):
        b, num_tokens, _ = x.shape
        queries = self.W_query(x).view(b, num_tokens, self.num_heads, self.head_dim).transpose(1, 2)
        keys = self.W_key(x).view(b, num_tokens, self.num_kv_groups, self.head_dim).transpose(1, 2)
        values = self.W_value(x).view(b, num_tokens, self.num_kv_groups, self.head_dim).transpose(1, 2)
        if self.q_norm:
            queries = self.q_norm(queries)
        if self.k_norm:
            keys = self.k_norm(keys)
        queries = apply_rope(queries, cos, sin)
        keys = apply_rope(keys, cos, sin)
        keys = keys.repeat_interleave(self.group_size, dim=1)
        values = values.repeat_interleave(self.group_size, dim=1)
        attn_scores = queries @ keys.transpose(2, 3)  # (b, heads, T, T)
        attn_scores = attn_scores.masked_fill(mask, -torch.inf)
        attn_weights = torch.softmax(attn_scores / self.head_dim**0.5, dim=-1)
        context = (attn_weights @ values).transpose(1, 2).reshape(b, num_tokens, self.d_out)
        return self.out_proj(context)
