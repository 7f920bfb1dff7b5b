# case: b38-11-clean
# modelled-on: pablo-reyes8/kimi-k3-pytorch https://github.com/pablo-reyes8/kimi-k3-pytorch/commit/0d4bb903e8a9c063db528a7eee7566eccf66e089
# label: correct
# class: clean
# pattern: attention core of a multi-head latent attention model with a KV cache (a folder: the mask builder and the attention functions): the mask builder returns a boolean (batch, queries, keys) map, True = may attend, combining key padding, query padding and a causal condition key_index <= query_position where the queries' absolute positions default to key_len - queries + i (bottom-right alignment for cached keys); a manual path scales by 1/sqrt(head dim), fills disallowed scores with -inf, replaces fully-masked rows by zeros before the softmax and zeroes disallowed weights after it; an SDPA path passes the same boolean map as attn_mask with is_causal=False and zeroes the outputs of fully-masked query rows
# why: correct: the boolean attn_mask is True where attention is allowed, which is SDPA's convention, and it already contains the cache-aware causal condition, so is_causal=False is right (is_causal=True would impose PyTorch's top-left triangle on the cached keys); the where after the softmax only removes weights that the -inf fill had already made zero and guards padded query rows against NaN
# looks-like: ATT002, ATT006, ATT007, ATT008
# source: https://github.com/pablo-reyes8/kimi-k3-pytorch https://github.com/pablo-reyes8/kimi-k3-pytorch/commit/0d4bb903e8a9c063db528a7eee7566eccf66e089 src/mla/attention.py
import math

import torch
import torch.nn.functional as F

from masking import attendable


def _heads_first(*tensors, dtype):
    return [t.transpose(1, 2).to(dtype) for t in tensors]


def manual_attention(q, k, v, key_valid=None, causal=True, dropout_p=0.0, *, query_valid=None, positions=None, training=False):
    allowed = attendable(q, k.shape[1], key_valid, query_valid, causal, positions)[:, None]
    query, key, value = _heads_first(q, k, v, dtype=torch.float32)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(q.shape[-1])
    scores = scores.masked_fill(~allowed, -torch.inf)
    has_key = allowed.any(dim=-1, keepdim=True)
    scores = torch.where(has_key, scores, torch.zeros_like(scores))
    probs = torch.softmax(scores, dim=-1)
    probs = torch.where(allowed, probs, torch.zeros_like(probs))
    probs = F.dropout(probs, p=dropout_p, training=training)
    return torch.matmul(probs, value).transpose(1, 2)


def fused_attention(q, k, v, key_valid=None, causal=True, dropout_p=0.0, *, query_valid=None, positions=None, training=False):
    allowed = attendable(q, k.shape[1], key_valid, query_valid, causal, positions)
    query, key, value = _heads_first(q, k, v, dtype=torch.float32)
    out = F.scaled_dot_product_attention(
        query, key, value,
        attn_mask=allowed.unsqueeze(1),
        dropout_p=dropout_p if training else 0.0,
        is_causal=False,
    )
    out = out.transpose(1, 2)
    live_rows = allowed.any(dim=-1)[:, :, None, None]
    return torch.where(live_rows, out, torch.zeros_like(out))


def latent_attention(q, k, v, key_valid=None, causal=True, backend="sdpa", **kwargs):
    if q.ndim != 4 or k.shape[0] != q.shape[0] or v.shape[:3] != k.shape[:3]:
        raise ValueError("expected q (B,Tq,H,D), k (B,Tk,H,D), v (B,Tk,H,V)")
    if backend == "manual":
        return manual_attention(q, k, v, key_valid, causal, **kwargs)
    return fused_attention(q, k, v, key_valid, causal, **kwargs)
