# case: t27t-09-clean
# modelled-on: NamVai/Music-Transformer-vs-Base-Transformer-for-symbolic-music-modelling https://github.com/NamVai/Music-Transformer-vs-Base-Transformer-for-symbolic-music-modelling/commit/235b219fc3199e68e0c9bc67ed59f4889e57b72b
# label: correct
# class: clean
# pattern: a course comparison of a baseline Transformer and a Music Transformer on JSB chorales: the baseline fills triu(ones, 1).bool() with -inf; the relative variant adds skewed relative logits (gathered by j - i + L - 1) to q @ k^T, divides by sqrt(head_dim) and fills a mask built from positions, j > i, or-ed with (i - j) >= local_window when a window is set, with -inf; sampling in the model module re-runs the last block_size tokens without a cache
# why: correct: both masks are True where a key must be hidden (a later key, or one that fell out of the window) and masked_fill fills True; the diagonal (i - j = 0) is kept for any positive window, so no row is fully masked and -inf cannot produce NaN; the training run is float32; without a cache every forward sees as many queries as keys, so the square mask is complete
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/NamVai/Music-Transformer-vs-Base-Transformer-for-symbolic-music-modelling https://github.com/NamVai/Music-Transformer-vs-Base-Transformer-for-symbolic-music-modelling/commit/235b219fc3199e68e0c9bc67ed59f4889e57b72b models/attention.py
import math
from typing import Optional

import torch
from torch import nn


def causal_mask(seq_len: int, device: torch.device) -> torch.Tensor:
    # True where a future position must be hidden
    return torch.triu(torch.ones(seq_len, seq_len, device=device), diagonal=1).bool()


def local_causal_mask(seq_len: int, device: torch.device, local_window: Optional[int]) -> torch.Tensor:
    # True where the key is in the future or beyond the local window
    i = torch.arange(seq_len, device=device).unsqueeze(1)
    j = torch.arange(seq_len, device=device).unsqueeze(0)
    mask = j > i
    if local_window is not None and local_window > 0:
        mask = mask | ((i - j) >= local_window)
    return mask


class StandardMultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float):
        super().__init__()
        self.num_heads, self.head_dim, self.d_model = num_heads, d_model // num_heads, d_model
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, L, _ = x.shape
        qkv = self.qkv(x).view(B, L, 3, self.num_heads, self.head_dim)
        q, k, v = (qkv[:, :, i].transpose(1, 2) for i in range(3))  # (B, H, L, Dh)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        scores = scores.masked_fill(causal_mask(L, x.device), float("-inf"))
        attn = self.dropout(torch.softmax(scores, dim=-1))
        return self.out((attn @ v).transpose(1, 2).reshape(B, L, self.d_model))


class RelativeMultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float, max_relative_position: int = 64,
                 local_window: Optional[int] = None):
        super().__init__()
        self.num_heads, self.head_dim, self.d_model = num_heads, d_model // num_heads, d_model
        self.max_relative_position = max_relative_position
        self.local_window = local_window
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = nn.Linear(d_model, d_model, bias=False)
        self.dropout = nn.Dropout(dropout)
        self.rel_emb = nn.Embedding(2 * max_relative_position + 1, self.head_dim)

    def _relative_logits(self, q: torch.Tensor) -> torch.Tensor:
        B, H, L, _ = q.shape
        rel = torch.arange(-(L - 1), L, device=q.device).clamp(-self.max_relative_position, self.max_relative_position)
        rel_logits = q @ self.rel_emb(rel + self.max_relative_position).t()  # (B, H, L, 2L-1)
        idx = torch.arange(L, device=q.device)
        rel_idx = idx[None, :] - idx[:, None] + (L - 1)  # (L, L): column of distance j - i
        return rel_logits.gather(3, rel_idx.view(1, 1, L, L).expand(B, H, L, L))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        B, L, _ = x.shape
        qkv = self.qkv(x).view(B, L, 3, self.num_heads, self.head_dim)
        q, k, v = (qkv[:, :, i].transpose(1, 2) for i in range(3))
        scores = (q @ k.transpose(-2, -1) + self._relative_logits(q)) / math.sqrt(self.head_dim)
        mask = local_causal_mask(L, x.device, self.local_window)
        scores = scores.masked_fill(mask, float("-inf"))
        attn = self.dropout(torch.softmax(scores, dim=-1))
        return self.out((attn @ v).transpose(1, 2).reshape(B, L, self.d_model))
