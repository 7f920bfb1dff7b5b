# case: causal-lower-right-bias-cache
# modelled-on: pytorch/pytorch https://github.com/pytorch/pytorch/issues/103082
# label: correct
# pattern: the KV-cache path the maintainers point to in #103082: torch.nn.attention.bias.causal_lower_right(L, S) passed as attn_mask when the query is shorter than the keys, is_causal only for the square (uncached) case
# why: the lower-right bias aligns the last query with the last key, which is what cached decoding and chunked prefill need; is_causal is never combined with a mask
# looks-like: ATT008, ATT002
import torch
import torch.nn.functional as F
from torch.nn.attention.bias import causal_lower_right


def cached_attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
    """q: (B, H, L, hd) new tokens; k, v: (B, H, S, hd) with the cache, S >= L."""
    L, S = q.shape[-2], k.shape[-2]
    if L == S:
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
    if L == 1:
        return F.scaled_dot_product_attention(q, k, v)  # one new token sees the whole prefix
    return F.scaled_dot_product_attention(q, k, v, attn_mask=causal_lower_right(L, S))
