# case: b44-02-mask
# modelled-on: Mateooo93/llm-coding-train https://github.com/Mateooo93/llm-coding-train/commit/851392fe8062aa2e9711f29e49592c6e891bcb5f
# label: buggy
# class: real-bug
# pattern: a decoder-only LM (a folder: the GQA attention module, the model that threads the padding mask through its blocks, and the training collate function; rotary embeddings left out): the attention builds an additive causal mask (-inf above the diagonal) and, when a 2-D padding mask is given, adds the padding mask to it, then hands the sum to F.scaled_dot_product_attention(attn_mask=..., is_causal=False)
# why: buggy: the padding mask is the 0/1 keep mask the collate function builds (zeros, then 1 over each example's length) and the model documents ("1 for real tokens, 0 for padding"); added as it is to the float causal mask, SDPA adds +1 to every real key and 0 to every padded key, so padding is never masked (a constant +1 on the kept keys only shifts them slightly); the repository's linear-attention sibling turns the same mask boolean and fills where it is False, which is the intended behaviour. No fix commit exists (the streaming chunks rarely pad), the label rests on the documented convention of the mask
# source: https://github.com/Mateooo93/llm-coding-train https://github.com/Mateooo93/llm-coding-train/commit/851392fe8062aa2e9711f29e49592c6e891bcb5f src/model/attention.py
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class GQAttention(nn.Module):
    def __init__(self, hidden: int, heads: int, kv_heads: int, dropout: float = 0.0):
        super().__init__()
        self.heads, self.kv_heads = heads, kv_heads
        self.head_dim = hidden // heads
        self.rep = heads // kv_heads
        self.dropout = dropout
        self.q = nn.Linear(hidden, heads * self.head_dim, bias=False)
        self.k = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.v = nn.Linear(hidden, kv_heads * self.head_dim, bias=False)
        self.out = nn.Linear(heads * self.head_dim, hidden, bias=False)

    def forward(self, x: torch.Tensor, attention_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        b, t, _ = x.shape
        q = self.q(x).view(b, t, self.heads, self.head_dim).transpose(1, 2)
        k = self.k(x).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.v(x).view(b, t, self.kv_heads, self.head_dim).transpose(1, 2)
        if self.rep > 1:
            k = k.repeat_interleave(self.rep, dim=1)
            v = v.repeat_interleave(self.rep, dim=1)

        bias = torch.triu(torch.full((t, t), float("-inf"), device=x.device, dtype=x.dtype), diagonal=1)
        if attention_mask is not None:
            if attention_mask.dim() == 2:
                bias = bias + attention_mask[:, None, None, :]
            else:
                bias = bias + attention_mask[:, None]

        y = F.scaled_dot_product_attention(
            q, k, v,
            attn_mask=bias,  # expect: ATT002
            dropout_p=self.dropout if self.training else 0.0,
            is_causal=False,
        )
        return self.out(y.transpose(1, 2).reshape(b, t, -1))
