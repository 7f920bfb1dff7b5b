# case: clean-protenix-prescaled-q-sdpa-scale-one
# modelled-on: bytedance/Protenix https://github.com/bytedance/Protenix/issues/159
# label: correct
# class: clean
# pattern: AlphaFold-style attention: a _prep_qkv method splits heads with view + transpose(-2, -3) and divides q by sqrt(c_hidden); a module-level _attention helper takes either F.scaled_dot_product_attention(..., scale=1.0) with an additive bias or a manual q @ k^T + bias softmax in float32 without any scale; a local-window bias is built as (1 - mask) * -inf with inf = 1e10
# why: q is already divided by sqrt(c_hidden) (the per-head size) in _prep_qkv, so the manual path must not scale again and SDPA is told scale=1.0 to skip its default; the additive bias is 0 where the window keeps a key and -1e10 elsewhere, computed in float32 (the helper upcasts q, k and the bias), and every query keeps its own window; the issue asked why one path scales and the other does not
# looks-like: ATT002, ATT003, ATT004, ATT007
# source: https://github.com/bytedance/Protenix https://github.com/bytedance/Protenix/commit/18ad37e5514a5197f979d3d0cca1a9a021dd0921 protenix/model/modules/primitives.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


def _attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, attn_bias: Optional[torch.Tensor] = None,
               use_efficient_implementation: bool = False) -> torch.Tensor:
    """q: [..., n_q, d], k and v: [..., n_kv, d], attn_bias: [..., n_q, n_kv]."""
    assert k.shape == v.shape
    input_dtype = q.dtype
    q = q.to(dtype=torch.float32)
    k = k.to(dtype=torch.float32)
    if attn_bias is not None:
        attn_bias = attn_bias.to(dtype=torch.float32)

    if use_efficient_implementation:
        return F.scaled_dot_product_attention(query=q, key=k, value=v, attn_mask=attn_bias, scale=1.0)

    with torch.amp.autocast("cuda", enabled=False):
        # [..., n_kv, d] -> [..., d, n_kv]
        k = k.transpose(-1, -2)
        # [..., n_q, n_kv]
        attn_weights = q @ k
        if attn_bias is not None:
            attn_weights = attn_weights + attn_bias
        attn_weights = F.softmax(attn_weights, dim=-1)
    return attn_weights.to(dtype=input_dtype) @ v


def create_local_attn_bias(n: int, n_queries: int, n_keys: int, inf: float = 1e10, device=None) -> torch.Tensor:
    n_trunks = int(math.ceil(n / n_queries))
    padded_n = n_trunks * n_queries
    attn_mask = torch.zeros(padded_n, padded_n, device=device)
    for block_index in range(0, n_trunks):
        i = block_index * n_queries
        j1 = max(0, n_queries * block_index - (n_keys - n_queries) // 2)
        j2 = n_queries * block_index + (n_queries + n_keys) // 2
        attn_mask[i:i + n_queries, j1:j2] = 1.0
    attn_bias = (1 - attn_mask) * -inf
    return attn_bias.to(device=device)[:n, :n]


class Attention(nn.Module):
    def __init__(self, c_q: int, c_k: int, c_v: int, c_hidden: int, num_heads: int,
                 use_efficient_implementation: bool = False) -> None:
        super(Attention, self).__init__()
        self.c_hidden = c_hidden
        self.num_heads = num_heads
        self.use_efficient_implementation = use_efficient_implementation
        self.linear_q = nn.Linear(c_q, c_hidden * num_heads)
        self.linear_k = nn.Linear(c_k, c_hidden * num_heads, bias=False)
        self.linear_v = nn.Linear(c_v, c_hidden * num_heads, bias=False)
        self.linear_o = nn.Linear(c_hidden * num_heads, c_q, bias=False)

    def _prep_qkv(self, q_x: torch.Tensor, kv_x: torch.Tensor, apply_scale: bool = True):
        # [*, Q/K/V, H * C_hidden] -> [*, Q/K/V, H, C_hidden] -> [*, H, Q/K/V, C_hidden]
        q = self.linear_q(q_x).view(q_x.shape[:-1] + (self.num_heads, -1)).transpose(-2, -3)
        k = self.linear_k(kv_x).view(kv_x.shape[:-1] + (self.num_heads, -1)).transpose(-2, -3)
        v = self.linear_v(kv_x).view(kv_x.shape[:-1] + (self.num_heads, -1)).transpose(-2, -3)
        if apply_scale:
            q = q / math.sqrt(self.c_hidden)
        return q, k, v

    def forward(self, q_x, kv_x, attn_bias=None, n_queries=None, n_keys=None, inf: float = 1e10):
        q, k, v = self._prep_qkv(q_x=q_x, kv_x=kv_x, apply_scale=True)
        if attn_bias is not None and len(attn_bias.shape) != len(q.shape):
            attn_bias = attn_bias.unsqueeze(dim=-3)
        if n_queries and n_keys:
            local_attn_bias = create_local_attn_bias(q.shape[-2], n_queries, n_keys, inf=inf, device=q.device)
            local_attn_bias = local_attn_bias.reshape((1,) * (len(q.shape[:-2])) + local_attn_bias.shape)
            if attn_bias is not None:
                local_attn_bias = local_attn_bias + attn_bias
            attn_bias = local_attn_bias
        o = _attention(q, k, v, attn_bias=attn_bias, use_efficient_implementation=self.use_efficient_implementation)
        o = o.transpose(-2, -3)  # [*, Q, H, C_hidden]
        return self.linear_o(o.flatten(-2))
