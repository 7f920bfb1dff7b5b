# case: t30w-09-clean
# modelled-on: nanphg287/image-captioning-transformer-model https://github.com/nanphg287/image-captioning-transformer-model/commit/99d085a129f4821c9534266d3c67f39abd370961
# label: correct
# class: clean
# pattern: an image-captioning Transformer split over modules: the collate module right-pads caption ids and returns caption_ids == PAD as caption_padding_mask (True = PAD); the masked self-attention module builds triu(ones(bool), diagonal=1) as the causal mask (True = hidden), ORs it with padding_mask[:, None, None, :] and fills masked_fill(combined, torch.finfo(scores.dtype).min) before the softmax; the decoder module's cross-attention over the 49 ResNet patch features takes no mask, and greedy decoding re-runs the decoder over the whole prefix each step (no cache)
# why: correct: both masks are True where a key must be hidden (future keys, PAD keys), which is what masked_fill expects, and their union hides both; every row keeps the BOS key (position 0 is never PAD and never in the future), so no row is all-minimum; finfo(scores.dtype).min follows the score dtype (finite under float16 autocast too); the image patches have no padding, so the cross-attention needs no mask; without a cache the square causal mask matches queries and keys
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/nanphg287/image-captioning-transformer-model https://github.com/nanphg287/image-captioning-transformer-model/commit/99d085a129f4821c9534266d3c67f39abd370961 models/_3_1_masked_multi_head_self_attention.py
import math

import torch
from torch import nn


class MaskedMultiHeadSelfAttention(nn.Module):
    """Pre-norm masked self-attention for the caption decoder.

    padding_mask: [B, L], True = PAD token, False = real token.
    """

    def __init__(self, d_model: int = 512, num_heads: int = 4, dropout: float = 0.1) -> None:
        super().__init__()
        if d_model % num_heads != 0:
            raise ValueError(f"d_model={d_model} must be divisible by num_heads={num_heads}")
        self.num_heads = num_heads
        self.head_dim = d_model // num_heads
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.input_norm = nn.LayerNorm(d_model, eps=1e-6)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)
        self.attention_dropout = nn.Dropout(dropout)

    @staticmethod
    def create_causal_mask(length: int, device: torch.device) -> torch.Tensor:
        """True above the diagonal: position i may not look at j > i."""
        return torch.triu(torch.ones(length, length, dtype=torch.bool, device=device), diagonal=1)

    def forward(self, text: torch.Tensor, padding_mask: torch.Tensor | None = None):
        b, length, d_model = text.shape
        qkv = self.qkv(self.input_norm(text)).view(b, length, 3, self.num_heads, self.head_dim)
        query, key, value = qkv.permute(2, 0, 3, 1, 4)  # 3 x [B, H, L, Dh]

        scores = torch.matmul(query, key.transpose(-2, -1)) * self.scale
        combined = self.create_causal_mask(length, text.device)[None, None]  # [1, 1, L, L]
        if padding_mask is not None:
            combined = combined | padding_mask[:, None, None, :]  # [B, 1, L, L]
        scores = scores.masked_fill(combined, torch.finfo(scores.dtype).min)

        weights = torch.softmax(scores, dim=-1)
        out = torch.matmul(self.attention_dropout(weights), value)
        out = out.transpose(1, 2).reshape(b, length, d_model)
        return text + self.out(out), weights
