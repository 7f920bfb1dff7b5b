# case: b30-04-clean
# modelled-on: shawnspitzel/cs336 https://github.com/shawnspitzel/cs336/commit/6ad648756a8d6b5a9a8ffe738a6eef0ba0c625ee
# label: correct
# class: clean
# pattern: a from-scratch language model (course work grown into a small LLM): a hand-written Linear (x @ weight.t()) and a max-subtracted softmax helper; SCPAttention divides q @ k.transpose(-2, -1) by sqrt(d_k) with d_k = q.shape[-1], fills mask == 0 with -inf and calls the helper over dim=-1; MultiHeadAttention reshapes the heads to (B * h, T, d), builds causal_mask = torch.tril(torch.ones(T, T, dtype=torch.bool)).unsqueeze(0) and hands it to F.scaled_dot_product_attention as attn_mask (the hand-written SCPAttention call is kept commented out beside it for benchmarking)
# why: correct: for scaled_dot_product_attention a boolean attn_mask is True where attention is allowed, and the lower-triangular mask is True exactly on keys at or before the query, so the fused kernel applies the causal mask with the right polarity and its own 1/sqrt(d) scale (q and k are not pre-scaled); the hand-written path reads the same mask the other way round (mask == 0 filled with -inf), also right, scales by the queries' last axis, which is one head's width after the reshape, and normalises over the keys
# looks-like: ATT002, ATT004, ATT008
# source: https://github.com/shawnspitzel/cs336 https://github.com/shawnspitzel/cs336/commit/6ad648756a8d6b5a9a8ffe738a6eef0ba0c625ee atlas-llm/src/model/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class Linear(nn.Module):
    def __init__(self, in_features: int, out_features: int, device=None, dtype=None):
        super().__init__()
        self.in_features = in_features
        self.out_features = out_features
        self.weight = nn.Parameter(torch.empty(self.out_features, self.in_features, dtype=dtype, device=device))
        nn.init.trunc_normal_(self.weight, mean=0.0, std=0.02)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x @ self.weight.t()


def softmax(x: torch.Tensor, dim: int) -> torch.Tensor:
    x_max = torch.max(x, dim=dim, keepdim=True).values
    x_shifted = x - x_max
    exp_x = torch.exp(x_shifted)
    sum_exp = torch.sum(exp_x, dim=dim, keepdim=True)
    return exp_x / sum_exp


def SCPAttention(q: Tensor, k: Tensor, v: Tensor, mask: Tensor = None):
    assert q.shape[-1] == k.shape[-1]
    assert k.shape[-2] == v.shape[-2]

    d_k = q.shape[-1]
    attn_obj = torch.matmul(q, k.transpose(-2, -1))
    attn_obj = attn_obj / math.sqrt(d_k)
    if mask is not None:
        attn_obj = attn_obj.masked_fill(mask == 0, -float("inf"))
    attn_obj = softmax(attn_obj, dim=-1)
    result = torch.matmul(attn_obj, v)
    return result


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_head = d_model // num_heads
        d_k = self.d_head
        self.q_proj = Linear(d_model, num_heads * d_k)
        self.k_proj = Linear(d_model, num_heads * d_k)
        self.v_proj = Linear(d_model, num_heads * d_k)
        self.output_proj = Linear(num_heads * d_k, d_model)

    def forward(self, x: Tensor, naive: bool = False):
        B, T, _ = x.shape
        h = self.num_heads
        d = self.d_head

        q = self.q_proj(x).view(B, T, h, d).transpose(1, 2)
        k = self.k_proj(x).view(B, T, h, d).transpose(1, 2)
        v = self.v_proj(x).view(B, T, h, d).transpose(1, 2)

        q = q.reshape(B * h, T, d)
        k = k.reshape(B * h, T, d)
        v = v.reshape(B * h, T, d)

        causal_mask = torch.tril(torch.ones(T, T, device=x.device, dtype=torch.bool))
        causal_mask = causal_mask.unsqueeze(0)

        if naive:
            # Naive attention, kept to benchmark against the fused kernel
            out = SCPAttention(q, k, v, mask=causal_mask)
        else:
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=causal_mask)

        out = out.view(B, h, T, d)
        out = out.transpose(1, 2).contiguous()
        out = out.view(B, T, h * d)
        return self.output_proj(out)
