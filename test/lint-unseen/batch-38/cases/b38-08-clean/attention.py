# case: b38-08-clean
# modelled-on: Israk-Arafat/TinyLLM_From_Scrach https://github.com/Israk-Arafat/TinyLLM_From_Scrach/commit/f73456240e6c9f7869ee71416bfb92453e29e74d
# label: correct
# class: clean
# pattern: a small decoder-only LM with grouped-query attention and a KV cache (a folder: attention module, model, generation loop): cached keys/values (n_kv_heads wide) are concatenated in front of the new ones, expanded to the query heads with repeat_interleave, and F.scaled_dot_product_attention is called with is_causal=(number of queries > 1); the model slices the RoPE table from the cache length; generation prefills the whole prompt without a cache, then feeds exactly one token per step with the cache
# why: correct: is_causal is only True when more than one query is processed, and the only multi-query call is the prefill, which has no cached keys, so PyTorch's top-left-aligned causal mask coincides with the right one; every cached step has a single query, which must see all keys and gets no mask; SDPA applies its default 1/sqrt(head_dim) scale
# looks-like: ATT003, ATT008
# source: https://github.com/Israk-Arafat/TinyLLM_From_Scrach https://github.com/Israk-Arafat/TinyLLM_From_Scrach/commit/f73456240e6c9f7869ee71416bfb92453e29e74d model/attention.py
import torch
import torch.nn.functional as F
from torch import nn


def rotate(x, freqs):
    pairs = torch.view_as_complex(x.float().reshape(*x.shape[:-1], -1, 2))
    turned = pairs * freqs[: x.shape[2]][None, None]
    return torch.view_as_real(turned).flatten(-2).type_as(x)


class GroupedSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, n_kv_heads, dropout=0.0):
        super().__init__()
        assert d_model % n_heads == 0 and n_heads % n_kv_heads == 0
        self.n_heads, self.n_kv_heads = n_heads, n_kv_heads
        self.group = n_heads // n_kv_heads
        self.head_dim = d_model // n_heads
        self.dropout = dropout
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.kv_proj = nn.Linear(d_model, 2 * n_kv_heads * self.head_dim, bias=False)
        self.o_proj = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x, freqs, past=None):
        B, T, C = x.shape
        q = self.q_proj(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k, v = self.kv_proj(x).view(B, T, 2, self.n_kv_heads, self.head_dim).unbind(dim=2)
        k, v = k.transpose(1, 2), v.transpose(1, 2)
        q, k = rotate(q, freqs), rotate(k, freqs)

        if past is not None:
            k = torch.cat([past[0], k], dim=2)
            v = torch.cat([past[1], v], dim=2)

        out = F.scaled_dot_product_attention(
            q,
            k.repeat_interleave(self.group, dim=1),
            v.repeat_interleave(self.group, dim=1),
            dropout_p=self.dropout if self.training else 0.0,
            is_causal=q.shape[2] > 1,
        )
        out = out.transpose(1, 2).contiguous().view(B, T, C)
        return self.o_proj(out), (k, v)
