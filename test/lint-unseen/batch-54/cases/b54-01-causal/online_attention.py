import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class OnlineSoftmaxAttention(nn.Module):
    """Tiled online-softmax attention; this is the PyTorch path used without Triton."""

    def __init__(self, n_heads: int, d_head: int, dropout: float = 0.0):
        super().__init__()
        self.n_heads = n_heads
        self.d_head = d_head
        self.dropout = dropout
        self.softmax_scale = 1.0 / math.sqrt(d_head)

    def _merge_heads(self, t: torch.Tensor) -> torch.Tensor:
        # [B, T, H, D] -> [B*H, T, D]
        b, n, h, d = t.shape
        return t.permute(0, 2, 1, 3).reshape(b * h, n, d)

    def _additive(self, mask: torch.Tensor, b: int, lq: int, lk: int, dtype) -> torch.Tensor:
        if mask.dtype == torch.bool:
            mask = torch.zeros(mask.shape, dtype=dtype, device=mask.device).masked_fill(mask, float("-inf"))
        else:
            mask = mask.to(dtype)
        if mask.dim() == 2:
            mask = mask[:, None, None, :]
        elif mask.dim() == 3:
            mask = mask[:, None]
        mask = mask.expand(b, self.n_heads, mask.shape[-2], lk)
        return mask.reshape(b * self.n_heads, -1, lk)

    def forward(
        self,
        q: torch.Tensor,
        k: torch.Tensor,
        v: torch.Tensor,
        causal: bool = True,
        attention_mask: Optional[torch.Tensor] = None,
    ) -> torch.Tensor:
        b, lq = q.shape[0], q.shape[1]
        lk = k.shape[1]
        qh, kh, vh = self._merge_heads(q), self._merge_heads(k), self._merge_heads(v)

        bias = None
        if attention_mask is not None:
            bias = self._additive(attention_mask, b, lq, lk, qh.dtype)

        use_causal_flag = causal
        if bias is not None and causal:
            # SDPA refuses a mask together with is_causal: fold the triangle into the bias
            upper = torch.ones(lq, lk, dtype=torch.bool, device=qh.device).triu(1)
            bias = bias.masked_fill(upper, float("-inf"))
            use_causal_flag = False

        p = self.dropout if self.training else 0.0
        out = F.scaled_dot_product_attention(
            qh,
            kh,
            vh,
            attn_mask=bias,
            dropout_p=p,
            is_causal=use_causal_flag,  # expect: ATT008
        )
        return out.reshape(b, self.n_heads, lq, self.d_head).permute(0, 2, 1, 3).contiguous()
