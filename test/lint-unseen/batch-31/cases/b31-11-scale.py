# case: b31-11-scale
# modelled-on: fkodom/grouped-query-attention-pytorch https://github.com/fkodom/grouped-query-attention-pytorch/commit/a80f53854e15cf461d8b9ab4b5fc6fad64b6d7db
# label: correct
# class: fixed
# pattern: the fixed grouped-query attention function and the multi-head GQA layer that calls it: the queries are divided by sqrt(d) once, split into (b, g, h, n, d) groups, einops.einsum forms (b, g, h, n, s) logits against the shared key heads, a tril causal mask or a user mask is written with masked_fill_(~mask, finfo.min), the softmax runs over the keys with no further scaling, and the groups are folded back into the query heads; the layer projects q to embed_dim and k, v to kv_heads * head_dim
# why: correct: one division of the queries by sqrt(d) is the whole 1/sqrt(d) scale (the commit's test checks equality with F.scaled_dot_product_attention after repeating the key/value heads); the boolean masks mean True = keep, so filling ~mask removes the masked keys; the tril mask keeps each row's diagonal, so no row is empty; dim=-1 is the key axis of the 5-D logits
# looks-like: ATT002, ATT003, ATT004, ATT007, ATT008
# source: https://github.com/fkodom/grouped-query-attention-pytorch https://github.com/fkodom/grouped-query-attention-pytorch/commit/a80f53854e15cf461d8b9ab4b5fc6fad64b6d7db grouped_query_attention_pytorch/attention.py
from typing import Optional, Tuple

import torch
import torch.nn.functional as F
from einops import einsum, rearrange
from torch import Tensor, nn


def scaled_dot_product_gqa(query: Tensor, key: Tensor, value: Tensor, dropout: float = 0.0,
                           scale: Optional[float] = None, mask: Optional[Tensor] = None,
                           is_causal: Optional[bool] = None, need_weights: bool = False,
                           average_attn_weights: bool = False, force_grouped: bool = False):
    """Grouped-query attention on (b, n, h, d) inputs; returns (b, n, h, d) and optional weights."""
    if (mask is not None) and (is_causal is not None):
        raise ValueError("Only one of 'mask' and 'is_causal' should be provided, but got both.")

    query = rearrange(query, "b n h d -> b h n d")
    key = rearrange(key, "b s h d -> b h s d")
    value = rearrange(value, "b s h d -> b h s d")
    bq, hq, nq, dq = query.shape
    bk, hk, nk, dk = key.shape
    if hq % hk != 0:
        raise ValueError("Expected query heads to be a multiple of key/value heads.")

    if scale is None:
        scale = query.size(-1) ** 0.5
    query = query / scale

    num_head_groups = hq // hk
    query = rearrange(query, "b (h g) n d -> b g h n d", g=num_head_groups)
    similarity = einsum(query, key, "b g h n d, b h s d -> b g h n s")

    if is_causal:
        # Mask out the upper triangle so that no position attends to the future.
        mask = torch.ones((bq, nq, nk), device=query.device, dtype=torch.bool).tril_()

    if mask is not None:
        if mask.ndim == 2:
            mask = rearrange(mask, "b s -> b () () () s")
        elif mask.ndim == 3:
            mask = rearrange(mask, "b n s -> b () () n s")
        similarity.masked_fill_(~mask, torch.finfo(similarity.dtype).min)

    attention = F.softmax(similarity, dim=-1)
    if dropout > 0.0:
        attention = F.dropout(attention, p=dropout)

    out = einsum(attention, value, "b g h n s, b h s d -> b g h n d")
    out = rearrange(out, "b g h n d -> b n (h g) d")

    attn_weights: Optional[Tensor] = None
    if need_weights:
        attn_weights = rearrange(attention, "b g h n s -> b n s (h g)")
        if average_attn_weights:
            attn_weights = attn_weights.mean(dim=1)
    return out, attn_weights


class MultiheadGQA(nn.Module):
    """Multi-head grouped-query attention layer (GQA), with the MAGNETO sub-layer norm before the output projection."""

    def __init__(self, embed_dim: int, query_heads: int, kv_heads: int, dropout: float = 0.0, bias: bool = True,
                 layer_norm: bool = True, layer_norm_eps: float = 1e-5, gamma_init: float = 1.0):
        super().__init__()
        self.query_heads = query_heads
        self.kv_heads = kv_heads
        self.dropout = dropout
        self.layer_norm = layer_norm
        self.gamma_init = gamma_init
        if query_heads % kv_heads != 0:
            raise ValueError(f"query_heads ({query_heads}) must be divisible by kv_heads ({kv_heads})")

        kv_embed_dim = embed_dim // query_heads * kv_heads
        self.q_proj = nn.Linear(embed_dim, embed_dim, bias=bias)
        self.k_proj = nn.Linear(embed_dim, kv_embed_dim, bias=bias)
        self.v_proj = nn.Linear(embed_dim, kv_embed_dim, bias=bias)
        self.norm: Optional[nn.LayerNorm] = nn.LayerNorm(embed_dim, eps=layer_norm_eps) if layer_norm else None
        self.out_proj = nn.Linear(embed_dim, embed_dim, bias=bias)

        nn.init.xavier_normal_(self.q_proj.weight)
        nn.init.xavier_normal_(self.k_proj.weight)
        nn.init.xavier_normal_(self.v_proj.weight, gain=self.gamma_init)
        nn.init.xavier_normal_(self.out_proj.weight, gain=self.gamma_init)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, need_weights: bool = False,
                is_causal: bool = False, average_attn_weights: bool = False) -> Tuple[Tensor, Optional[Tensor]]:
        q = rearrange(self.q_proj(query), "b n (h d) -> b n h d", h=self.query_heads)
        k = rearrange(self.k_proj(key), "b n (h d) -> b n h d", h=self.kv_heads)
        v = rearrange(self.v_proj(value), "b n (h d) -> b n h d", h=self.kv_heads)
        x, attn = scaled_dot_product_gqa(
            query=q,
            key=k,
            value=v,
            is_causal=is_causal,
            need_weights=need_weights,
            average_attn_weights=average_attn_weights,
            force_grouped=False,
        )
        x = rearrange(x, "b n h d -> b n (h d)")
        if self.norm is not None:
            x = self.norm(x)
        return self.out_proj(x), attn
