# case: causal-torchelie-gated-no-cache
# modelled-on: Vermeille/Torchelie https://github.com/Vermeille/Torchelie/commit/f05f98d00b33946cd8ca70cc20d2fc413800ab1e
# label: correct
# pattern: the later form of the same layer: no key/value cache any more, SDPA called with is_causal=self.causal on full sequences, and a per-head sigmoid gate multiplied into SDPA's output
# why: without a cache queries and keys always have the same length, so the top-left causal mask is the right one; the gate scales the attention output, not the weights
# looks-like: ATT008, ATT006
import math

import torch
import torch.nn as nn


class GatedSelfAttention(nn.Module):
    """Self-attention over (b, l, hidden) with a learned per-head output gate."""

    def __init__(self, hidden_size: int, num_heads: int, head_size: int, causal: bool = True):
        super().__init__()
        self.num_heads = num_heads
        self.head_size = head_size
        self.qkv = nn.Linear(hidden_size, 3 * num_heads * head_size, bias=False)
        nn.init.normal_(self.qkv.weight, std=math.sqrt(2 / (5 * hidden_size)))
        self.g = nn.Linear(hidden_size, num_heads)
        self.out = nn.Linear(num_heads * head_size, hidden_size, bias=False)
        self.causal = causal

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, l, h, d = x.shape[0], x.shape[1], self.num_heads, self.head_size
        qkv = self.qkv(x).reshape(b, l, 3, h, d).permute(2, 0, 3, 1, 4)  # (3, b, h, l, d)
        q, k, v = qkv[0], qkv[1], qkv[2]
        g = self.g(x).permute(0, 2, 1).view(b, h, l, 1)  # (b, h, l, 1)
        att = nn.functional.scaled_dot_product_attention(q, k, v, is_causal=self.causal) * torch.sigmoid(g)
        att = att.permute(0, 2, 1, 3).contiguous().reshape(b, l, h * d)  # (b, l, h*d)
        return self.out(att)
