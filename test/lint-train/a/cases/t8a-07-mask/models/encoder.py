import math
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class PaddedSelfAttention(nn.Module):
    """fairseq-style attention over (T, B, C); key_padding_mask: (B, S), True = padding key."""

    def __init__(self, dim: int, heads: int):
        super().__init__()
        self.heads, self.hd = heads, dim // heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.out = nn.Linear(dim, dim)

    def forward(self, x: torch.Tensor, key_padding_mask: Optional[torch.Tensor] = None):
        T, B, C = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.reshape(T, B * self.heads, self.hd).transpose(0, 1) / math.sqrt(self.hd)
        k = k.reshape(T, B * self.heads, self.hd).transpose(0, 1)
        v = v.reshape(T, B * self.heads, self.hd).transpose(0, 1)
        w = torch.bmm(q, k.transpose(1, 2)).view(B, self.heads, T, T)
        if key_padding_mask is not None:
            w = w.masked_fill(key_padding_mask.unsqueeze(1).unsqueeze(2).to(torch.bool), float("-inf"))  # expect: ATT002
        w = F.softmax(w.view(B * self.heads, T, T), dim=-1)
        return self.out(torch.bmm(w, v).transpose(0, 1).reshape(T, B, C))


class FrameEncoder(nn.Module):
    def __init__(self, dim: int = 768, heads: int = 12, layers: int = 12, hop: int = 320):
        super().__init__()
        self.patch = nn.Conv1d(1, dim, kernel_size=hop, stride=hop)
        self.layers = nn.ModuleList([PaddedSelfAttention(dim, heads) for _ in range(layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(layers)])

    @staticmethod
    def frame_padding_mask(features: torch.Tensor, padding_mask: torch.Tensor) -> torch.Tensor:
        extra = padding_mask.size(1) % features.size(1)
        if extra > 0:
            padding_mask = padding_mask[:, :-extra]
        return padding_mask.view(padding_mask.size(0), features.size(1), -1).all(-1)

    def forward(self, raw_wav: torch.Tensor, padding_mask: Optional[torch.Tensor] = None):
        feats = self.patch(raw_wav.unsqueeze(1)).transpose(1, 2)  # (B, T_frames, C)
        if padding_mask is not None:
            padding_mask = self.frame_padding_mask(feats, padding_mask)
            feats = feats.masked_fill(padding_mask.unsqueeze(-1), 0.0)
        x = feats.transpose(0, 1)
        for attn, norm in zip(self.layers, self.norms):
            x = x + attn(norm(x), key_padding_mask=padding_mask)
        return x.transpose(0, 1)
