# case: fill-empty-set-kpm-neg-inf-nan
# modelled-on: pytorch/pytorch https://github.com/pytorch/pytorch/issues/40932
# label: buggy
# pattern: pooling by multi-head attention over a padded batch of variable-size sets (detections per frame), where a frame can contain no detections at all; padded slots are filled with -inf
# why: for an empty set every key is padding, the whole row is -inf and softmax returns NaN, which propagates to the loss (the "nan loss encountered" of #40932)
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def pad_sets(sets: list, dim: int):
    """sets: list of (n_i, dim) tensors, n_i may be 0 -> (B, N_max, dim), (B, N_max) bool True = padding."""
    n_max = max(1, max(s.shape[0] for s in sets))
    x = torch.zeros(len(sets), n_max, dim)
    pad = torch.ones(len(sets), n_max, dtype=torch.bool)
    for i, s in enumerate(sets):
        x[i, : s.shape[0]] = s
        pad[i, : s.shape[0]] = False
    return x, pad


class PoolingByAttention(nn.Module):
    def __init__(self, dim: int, num_heads: int = 4, num_seeds: int = 1):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.seeds = nn.Parameter(torch.randn(1, num_seeds, dim))
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, key_padding_mask: torch.Tensor) -> torch.Tensor:
        B, N, D = x.shape
        q = self.seeds.expand(B, -1, -1).view(B, -1, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k(x).view(B, N, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v(x).view(B, N, self.num_heads, self.head_dim).transpose(1, 2)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)  # (B, H, seeds, N)
        scores = scores.masked_fill(key_padding_mask[:, None, None, :], float("-inf"))  # expect: ATT007
        attn = F.softmax(scores, dim=-1)
        pooled = (attn @ v).transpose(1, 2).reshape(B, -1, D)
        return self.out(pooled)


def encode_frames(detections_per_frame: list, encoder: PoolingByAttention, dim: int) -> torch.Tensor:
    x, pad = pad_sets(detections_per_frame, dim)
    return encoder(x, pad)
