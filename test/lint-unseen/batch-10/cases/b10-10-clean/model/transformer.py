# case: b10-10-clean
# modelled-on: vjsingh1984/llm-from-scratch https://github.com/vjsingh1984/llm-from-scratch/commit/70753bb
# label: correct
# class: clean
# pattern: an MoE model in another module builds tril(ones) (1 = keep) and passes it as mask=, but the attention ignores that argument and fills its own triu(ones, 1).bool() buffer (True = future) with -inf
# why: the mask argument is documented as optional and never read; the buffer is True strictly above the diagonal, which masked_fill masks, so the model is causal whatever mask it is handed
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/vjsingh1984/llm-from-scratch https://github.com/vjsingh1984/llm-from-scratch/commit/70753bb advanced-code-model/src/model/transformer.py
import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention with causal masking."""

    def __init__(self, d_model: int, n_heads: int, max_seq_len: int, dropout: float = 0.0):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.qkv_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)
        self.attn_dropout = nn.Dropout(dropout)
        self.scale = 1.0 / math.sqrt(self.d_head)
        self.register_buffer("causal_mask", torch.triu(torch.ones(max_seq_len, max_seq_len), diagonal=1).bool())

    def forward(self, x: torch.Tensor, mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        """x: [batch, seq_len, d_model]; mask: optional attention mask."""
        b, t, _ = x.shape
        qkv = self.qkv_proj(x).reshape(b, t, 3, self.n_heads, self.d_head).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale
        causal_mask = self.causal_mask[:t, :t]
        scores = scores.masked_fill(causal_mask, float("-inf"))
        weights = self.attn_dropout(F.softmax(scores, dim=-1))
        out = torch.matmul(weights, v).transpose(1, 2).reshape(b, t, self.d_model)
        return self.out_proj(out)
