# case: b3-52-mask
# modelled-on: ImahnShekhzadeh/attention-is-all-you-need https://github.com/ImahnShekhzadeh/attention-is-all-you-need/commit/7cd11cfab04385b391745d6472546af41057e4dc
# label: correct
# class: fixed
# pattern: a decoder-only transformer: the look-ahead mask comes from a helper in transformer/utils.py (tril(ones, diagonal=0): 1 on and below the diagonal, the allowed keys) and reaches a functional scaled_dot_product_attn through a MultiHeadAttention module that expands it to 4-D; the attention fills -inf where attn_mask == 0 before the softmax
# why: the state after d292ae4 (triu -> tril) and 7cd11cf (diagonal 1 -> 0): the helper marks the allowed keys with 1 and the fill removes the 0s, i.e. exactly the future keys; the diagonal is always 1, so no row is all -inf
# looks-like: ATT002, ATT007
# source: https://github.com/ImahnShekhzadeh/attention-is-all-you-need https://github.com/ImahnShekhzadeh/attention-is-all-you-need/commit/7cd11cfab04385b391745d6472546af41057e4dc transformer/architecture/attention.py
import math
from typing import Optional

import torch
from torch import nn
from torch.nn.functional import softmax


def expand_mask(mask: torch.Tensor) -> torch.Tensor:
    """Broadcast a 2-D (T, T) or 3-D (N, T, T) mask to (N, heads, T, T)."""
    if mask.ndim == 3:
        mask = mask.unsqueeze(1)
    while mask.ndim < 4:
        mask = mask.unsqueeze(0)
    return mask


def scaled_dot_product_attn(q, k, v, attn_mask: Optional[torch.Tensor] = None):
    """softmax(q k^T / sqrt(d_k)) v; attn_mask: entries equal to 0 are excluded from attention."""
    logits = q @ k.mT / math.sqrt(q.shape[-1])
    if attn_mask is not None:
        logits.masked_fill_(attn_mask == 0, -float("inf"))
    weights = softmax(logits, dim=-1)
    return weights @ v, weights


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, use_bias: bool = False):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.embed_dim, self.num_heads = embed_dim, num_heads
        self.head_dim = embed_dim // num_heads
        self.qkv_proj = nn.Linear(embed_dim, 3 * embed_dim, bias=use_bias)
        self.o_proj = nn.Linear(embed_dim, embed_dim, bias=use_bias)

    def _heads(self, t: torch.Tensor) -> torch.Tensor:
        return t.reshape(t.shape[0], t.shape[1], self.num_heads, self.head_dim).permute(0, 2, 1, 3)

    def forward(self, x, attn_mask: Optional[torch.Tensor] = None, return_attention: bool = False):
        if attn_mask is not None:
            attn_mask = expand_mask(attn_mask)
        q, k, v = self.qkv_proj(x).chunk(3, dim=-1)  # each (N, T, embed_dim)
        values, weights = scaled_dot_product_attn(self._heads(q), self._heads(k), self._heads(v), attn_mask=attn_mask)
        values = values.permute(0, 2, 1, 3).reshape(x.shape[0], x.shape[1], self.embed_dim)
        out = self.o_proj(values)
        return (out, weights) if return_attention else out
