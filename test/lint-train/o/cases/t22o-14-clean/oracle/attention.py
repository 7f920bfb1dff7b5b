# case: t22o-14-clean
# modelled-on: RichardHuang2006/Mini-vLLM https://github.com/RichardHuang2006/Mini-vLLM/commit/bb6c96b24df97bddccd3255bfadd86c064bce701
# label: correct
# class: clean
# pattern: a serving engine's reference attention (the oracle its kernels are diffed against): an additive causal mask of shape (query_len, source_len) built as zeros masked_fill(~allowed, -inf) with allowed = column <= row + (source_len - query_len), a "causal" string shorthand that builds it from the query and key lengths, and a grouped-query form that reshapes the queries to (B, H_k, G, L, D) and unsqueezes K and V so the groups broadcast; the softmax is the project's own max-subtracting float32 softmax from basics.py, called with dim=-1; the scale defaults to 1/sqrt(head_dim)
# why: correct: shifting the diagonal by source_len - query_len aligns the mask to the bottom right, so L new queries against S cached keys see the whole cache and each other up to themselves (and a single decode token sees everything); ~allowed is exactly the forbidden part, where -inf goes; the imported softmax normalises the key axis; GQA by broadcasting gives each KV head its own group of queries
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/RichardHuang2006/Mini-vLLM https://github.com/RichardHuang2006/Mini-vLLM/commit/bb6c96b24df97bddccd3255bfadd86c064bce701 mini_vllm/attention.py
from __future__ import annotations

import math

import torch

from .basics import softmax


def causal_mask(query_len: int, source_len: int, dtype=torch.float32, device=None) -> torch.Tensor:
    """Additive causal mask: query i may see key j only when j <= source_len - query_len + i."""
    offset = source_len - query_len
    rows = torch.arange(query_len, device=device).unsqueeze(1)
    columns = torch.arange(source_len, device=device).unsqueeze(0)
    allowed = columns <= rows + offset
    return torch.zeros(query_len, source_len, dtype=dtype, device=device).masked_fill(~allowed, float("-inf"))


def attention_simple(q, k, v, scale=None, mask=None):
    """q: N.. x L x D; k, v: N.. x S x D; mask additive (0 keeps, -inf drops) or "causal"."""
    if scale is None:
        scale = 1.0 / math.sqrt(q.shape[-1])
    scores = (q @ k.transpose(-2, -1)) * scale
    if isinstance(mask, str):
        if mask != "causal":
            raise ValueError(f"unknown mask shorthand {mask!r}")
        mask = causal_mask(q.shape[-2], k.shape[-2], q.dtype, q.device)
    if mask is not None:
        scores = scores + mask
    return softmax(scores, dim=-1) @ v


def attention_grouped(q, k, v, scale=None, mask=None):
    """q: B x H_q x L x D; k, v: B x H_k x S x D."""
    *batch, num_query_heads, query_len, head_dim = q.shape
    num_kv_heads = k.shape[-3]
    group = num_query_heads // num_kv_heads
    source_len = k.shape[-2]
    if scale is None:
        scale = 1.0 / math.sqrt(head_dim)
    q = q.reshape(*batch, num_kv_heads, group, query_len, head_dim)
    k = k.unsqueeze(-3)
    v = v.unsqueeze(-3)
    scores = (q @ k.transpose(-2, -1)) * scale
    if isinstance(mask, str):
        mask = causal_mask(query_len, source_len, q.dtype, q.device)
    if mask is not None:
        if mask.ndim == 4:
            mask = mask.reshape(*mask.shape[:-3], num_kv_heads, group, query_len, source_len)
        scores = scores + mask
    out = softmax(scores, dim=-1) @ v
    return out.reshape(*batch, num_query_heads, query_len, head_dim)
