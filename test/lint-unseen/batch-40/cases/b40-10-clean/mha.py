from __future__ import annotations

import torch
from torch import Tensor, nn
from torch.nn import functional as F


class SplitAttention(nn.Module):
    """Multi-head attention whose projections and SDPA step can be called separately (for the KV cache)."""

    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.0):
        super().__init__()
        if d_model % num_heads:
            raise ValueError(f"d_model ({d_model}) must be divisible by num_heads ({num_heads})")
        self.d_model, self.num_heads = d_model, num_heads
        self.head_dim = d_model // num_heads
        self.dropout_p = dropout
        self.wq, self.wk, self.wv, self.wo = (nn.Linear(d_model, d_model) for _ in range(4))

    def heads(self, layer: nn.Linear, x: Tensor) -> Tensor:
        b, n, _ = x.shape
        return layer(x).view(b, n, self.num_heads, self.head_dim).transpose(1, 2)

    def project_q(self, x: Tensor) -> Tensor:
        return self.heads(self.wq, x)

    def project_kv(self, key: Tensor, value: Tensor) -> tuple[Tensor, Tensor]:
        return self.heads(self.wk, key), self.heads(self.wv, value)

    def attend(self, q: Tensor, k: Tensor, v: Tensor, key_padding_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        b, _, lq, _ = q.shape
        lk = k.shape[2]
        p = self.dropout_p if self.training else 0.0
        if key_padding_mask is None:
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=None, dropout_p=p, is_causal=is_causal)
        else:
            # key_padding_mask is True at padded keys; SDPA gets an additive float mask instead
            bias = torch.zeros(b, 1, 1, lk, device=q.device, dtype=q.dtype)
            bias = bias.masked_fill(key_padding_mask.view(b, 1, 1, lk), float("-inf"))
            if is_causal:
                upper = torch.full((lq, lk), float("-inf"), device=q.device, dtype=q.dtype).triu(1)
                bias = bias + upper.view(1, 1, lq, lk)
            out = F.scaled_dot_product_attention(q, k, v, attn_mask=bias, dropout_p=p, is_causal=False)
        return self.wo(out.transpose(1, 2).contiguous().view(b, lq, self.d_model))

    def forward(self, query: Tensor, key: Tensor, value: Tensor, key_padding_mask: Tensor | None = None, is_causal: bool = False) -> Tensor:
        k, v = self.project_kv(key, value)
        return self.attend(self.project_q(query), k, v, key_padding_mask=key_padding_mask, is_causal=is_causal)
