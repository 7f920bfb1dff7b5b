# case: b20-03-clean
# modelled-on: Gideon1673/image-captioning-transformer-model https://github.com/Gideon1673/image-captioning-transformer-model/commit/a1b0bad7e3b98c71395122309417b518f53442f3
# label: correct
# class: clean
# pattern: the caption decoder of an image-captioning transformer: the collate function (data/collate.py) builds caption_padding_mask = (caption_ids == pad_id), True at padding; the masked self-attention builds its causal mask as triu(ones(L, L, bool), diagonal=1), True above the diagonal, ORs in the padding mask indexed [:, None, None, :] and fills masked_fill(combined, torch.finfo(scores.dtype).min) before a dim=-1 softmax; the decoder (models/decoder.py) threads the mask from the batch to the attention
# why: correct: both masks say True = hidden, the OR hides future keys and padding keys, and masked_fill writes where the mask is True; the fill is the dtype's own finite minimum, so padded query rows (whose keys before them include real tokens anyway: captions are right-padded) never become NaN; scale is 1/sqrt(head_dim)
# looks-like: ATT002, ATT007
# source: https://github.com/Gideon1673/image-captioning-transformer-model https://github.com/Gideon1673/image-captioning-transformer-model/commit/a1b0bad7e3b98c71395122309417b518f53442f3 models/_3_1_masked_multi_head_self_attention.py
from __future__ import annotations

import math

import torch
import torch.nn as nn


class MaskedSelfAttention(nn.Module):
    """padding_mask: (B, L) bool, True = PAD token, False = real token."""

    def __init__(self, d_model: int = 512, num_heads: int = 4, dropout: float = 0.1):
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError("d_model must be divisible by num_heads")
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.norm = nn.LayerNorm(d_model, eps=1e-6)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    @staticmethod
    def causal_mask(length: int, device: torch.device) -> torch.Tensor:
        # True above the diagonal: the positions a token may not look at
        return torch.triu(torch.ones(length, length, dtype=torch.bool, device=device), diagonal=1)

    def forward(self, x: torch.Tensor, padding_mask: torch.Tensor | None = None) -> torch.Tensor:
        b, length, d = x.shape
        h = self.norm(x)
        q, k, v = self.qkv(h).view(b, length, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)

        scores = torch.matmul(q, k.transpose(-2, -1))
        scores = scores * self.scale

        combined = self.causal_mask(length, x.device).unsqueeze(0).unsqueeze(0)
        if padding_mask is not None:
            key_pad = padding_mask[:, None, None, :]
            combined = combined | key_pad
        scores = scores.masked_fill(combined, torch.finfo(scores.dtype).min)

        weights = torch.softmax(scores, dim=-1)
        ctx = torch.matmul(self.drop(weights), v)
        ctx = ctx.transpose(1, 2).reshape(b, length, d)
        return x + self.drop(self.out(ctx))
