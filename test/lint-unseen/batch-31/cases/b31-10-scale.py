# case: b31-10-scale
# modelled-on: fkodom/grouped-query-attention-pytorch https://github.com/fkodom/grouped-query-attention-pytorch/commit/0b5ab637ba225047ea3d65923c40dee23878065b
# label: buggy
# class: real-bug
# pattern: a grouped-query attention function meant as a drop-in for scaled dot-product attention: inputs (b, n, h, d) are rearranged to (b, h, n, d), the queries are divided by scale = d ** 0.5 up front, einops.einsum forms the (b, h, n, s) similarity, a boolean mask (or a tril causal mask) is applied with masked_fill_(~mask, finfo.min), and the softmax is taken over the keys
# why: buggy: the queries are already divided by sqrt(d) before the einsum, and the similarity is divided by the same sqrt(d) again inside the softmax, so the logits are scaled by 1/d instead of 1/sqrt(d); the author's fix (commit a80f538, "Fix discrepancy between grouped-SDPA and SDPA") drops the second division and adds a test asserting equality with F.scaled_dot_product_attention. (The grouped branch also sums the query groups in its einsum, a second defect the same commit fixes and no rule describes.)
# source: https://github.com/fkodom/grouped-query-attention-pytorch https://github.com/fkodom/grouped-query-attention-pytorch/commit/0b5ab637ba225047ea3d65923c40dee23878065b grouped_query_attention_pytorch/attention.py
from typing import Optional

import torch
import torch.nn.functional as F
from einops import einsum, rearrange
from torch import Tensor


def scaled_dot_product_gqa(
    query: Tensor,
    key: Tensor,
    value: Tensor,
    dropout: float = 0.0,
    scale: Optional[float] = None,
    mask: Optional[Tensor] = None,
    is_causal: Optional[bool] = None,
    need_weights: bool = False,
    average_attn_weights: bool = False,
    force_grouped: bool = False,
):
    """Scaled dot product attention with support for grouped queries.

    Einstein notation: b batch size, n / s sequence length, h number of heads, g number of groups,
    d dimension of query/key/value.

    Args:
        query: Query tensor of shape (b, n, h, d)
        key: Key tensor of shape (b, s, h, d)
        value: Value tensor of shape (b, s, h, d)
        scale: Scale factor for query (default: d_query ** 0.5)
        mask: Mask tensor of shape (b, n, s) or (b, s).
    """
    if (mask is not None) and (is_causal is not None):
        raise ValueError("Only one of 'mask' and 'is_causal' should be provided, but got both.")
    elif not query.ndim == key.ndim == value.ndim == 4:
        raise ValueError(
            f"Expected query, key, and value to be 4-dimensional, but got shapes "
            f"{query.shape}, {key.shape}, and {value.shape}."
        )

    # Move sequence length dimension to axis 2.
    query = rearrange(query, "b n h d -> b h n d")
    key = rearrange(key, "b s h d -> b h s d")
    value = rearrange(value, "b s h d -> b h s d")

    bq, hq, nq, dq = query.shape
    bk, hk, nk, dk = key.shape
    bv, hv, nv, dv = value.shape
    if not (bq == bk == bv and dq == dk == dv):
        raise ValueError("Expected query, key, and value to have the same batch size and embedding dimension.")
    elif (hk != hv) or (nk != nv):
        raise ValueError("Expected key and value to have the same size in dimensions 1 and 2.")
    elif hq % hk != 0:
        raise ValueError("Expected query heads to be a multiple of key/value heads.")

    if scale is None:
        scale = query.size(-1) ** 0.5
    query = query / scale

    num_head_groups = hq // hk
    if num_head_groups > 1 or force_grouped:
        # Fold the query groups; the attention is computed for each head in parallel.
        query = rearrange(query, "b (h g) n d -> b g h n d", g=num_head_groups)
        similarity = einsum(query, key, "b g h n d, b h s d -> b h n s")
    else:
        # Same number of query and key heads: standard dot-product attention.
        similarity = einsum(query, key, "b h n d, b h s d -> b h n s")

    if is_causal:
        # Mask out the upper triangle so that no position attends to the future.
        mask = torch.ones(
            (bq, nq, nk),
            device=query.device,
            dtype=torch.bool,
        ).tril_()

    if mask is not None:
        if mask.ndim == 2:
            mask = rearrange(mask, "b s -> b () () s")
        elif mask.ndim == 3:
            mask = rearrange(mask, "b n s -> b () n s")
        similarity.masked_fill_(~mask, torch.finfo(similarity.dtype).min)

    attention = F.softmax(similarity / scale, dim=-1)  # expect: ATT004
    if dropout > 0.0:
        attention = F.dropout(attention, p=dropout)

    out = einsum(attention, value, "b h n s, b h s d -> b h n d")
    out = rearrange(out, "b h n d -> b n h d")

    attn_weights: Optional[Tensor] = None
    if need_weights:
        attn_weights = rearrange(attention, "b h n s -> b n s h")
        if average_attn_weights:
            attn_weights = attn_weights.mean(dim=1)

    return out, attn_weights
