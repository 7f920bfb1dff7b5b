import math
from typing import Optional

import torch
from torch import BoolTensor, Size, Tensor, nn
from torch.nn.functional import softmax

from tagger.dense import expand_to


def padded_softmax(x: Tensor, pad: Optional[BoolTensor], dim: int = -1) -> Tensor:
    """Softmax that leaves padded elements out (pad is True on padding)."""
    if pad is not None:
        pad = expand_to(pad, x.dim())
        x = x.masked_fill(pad, -torch.inf)

    x = softmax(x, dim=dim)

    if pad is not None:
        x = x.masked_fill(pad, 0)

    return x


def combine_masks(
    q_pad: Optional[BoolTensor],
    kv_pad: Optional[BoolTensor],
    edge_mask: Optional[BoolTensor],
    q_shape: Size,
    k_shape: Size,
    device: torch.device,
) -> Optional[BoolTensor]:
    """One (batch, Lq, Lk) mask, PyTorch convention: True = padded / not allowed."""
    merged = None
    if q_pad is not None or kv_pad is not None:
        if q_pad is None:
            q_pad = torch.full(q_shape[:-1], False, device=device)
        if kv_pad is None:
            kv_pad = torch.full(k_shape[:-1], False, device=device)
        merged = q_pad.unsqueeze(-1) | kv_pad.unsqueeze(-2)
    if edge_mask is not None:
        merged = edge_mask if merged is None else edge_mask | merged
    return merged


class DotProductScores(nn.Module):
    """Scaled dot-product weights; the extra bias is the particle-transformer pair term."""

    def __init__(self, dropout: float = 0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    def forward(self, q, k, scale, mask=None, pair_bias=None):
        scores = torch.matmul(q, k.transpose(-2, -1)) / scale
        if pair_bias is not None:
            scores = scores + pair_bias.permute(0, 3, 1, 2)
        scores = self.dropout(scores)
        return padded_softmax(scores, mask)


class GATv2Scores(nn.Module):
    """GATv2 weights: a learned vector dotted with the activated sum of each query/key pair."""

    def __init__(self, num_heads: int, head_dim: int):
        super().__init__()
        self.att = nn.Parameter(torch.empty(1, num_heads, 1, 1, head_dim))
        self.act = nn.SiLU()
        nn.init.xavier_uniform_(self.att)

    def forward(self, q, k, scale, mask=None, pair_bias=None):
        pairs = q.unsqueeze(-2) + k.unsqueeze(-3)
        scores = (self.act(pairs) * self.att).sum(dim=-1)
        if pair_bias is not None:
            scores = scores + pair_bias
        return padded_softmax(scores, mask)


class MultiheadAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int, scores: nn.Module):
        super().__init__()
        if embed_dim % num_heads != 0:
            raise ValueError("embed_dim must be divisible by num_heads")
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scale = math.sqrt(self.head_dim)
        self.scores = scores
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out = nn.Linear(embed_dim, embed_dim)

    def split(self, q, k, v):
        shape = (k.shape[0], -1, self.num_heads, self.head_dim)
        return (
            self.q_proj(q).view(shape).transpose(1, 2),
            self.k_proj(k).view(shape).transpose(1, 2),
            self.v_proj(v).view(shape).transpose(1, 2),
        )

    def forward(self, q, k=None, v=None, q_pad=None, kv_pad=None, edge_mask=None, pair_bias=None):
        if k is None:
            k = q
            if kv_pad is None:
                kv_pad = q_pad
        v = v if v is not None else k
        batch = q.shape[0]
        mask = combine_masks(q_pad, kv_pad, edge_mask, q.shape, k.shape, q.device)
        qh, kh, vh = self.split(q, k, v)
        weights = self.scores(qh, kh, self.scale, mask, pair_bias)
        out = torch.matmul(weights, vh)
        out = out.transpose(1, 2).contiguous().view(batch, -1, self.embed_dim)
        return self.out(out)
