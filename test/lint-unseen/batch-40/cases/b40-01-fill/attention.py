# case: b40-01-fill
# modelled-on: A-Elshahawy/FlexiTransformers https://github.com/A-Elshahawy/FlexiTransformers/commit/b2f7dd0fab048759a4003aa5cbc3f4709d32091e
# label: buggy
# class: real-bug
# pattern: a library of interchangeable multi-head attention layers (a folder: the layers, a rotary helper and the factory that picks one from a config): an abstract base class stores the projections, the dropout and a mask value given to its constructor with a default, and a forward that splits heads and calls the subclass's attention(); each subclass scores q k^T / sqrt(d_k), fills the masked positions with the negated stored value, takes the softmax over the keys and weights the values; the factory builds the layers with the base class's default
# why: buggy: the base class's default mask value is -1e9 and every attention() fills with -self.mask_eps, so masked positions receive +1e9 and the softmax puts all of its weight on the padded and future positions it was meant to hide; the factory never passes another value, so every model the library builds is affected; the author's fix (commit 8bf1f2b) changes the default to -inf and fills with self.mask_eps unnegated
# source: https://github.com/A-Elshahawy/FlexiTransformers https://github.com/A-Elshahawy/FlexiTransformers/commit/8bf1f2b0637f939d44a7ae5a2b819e2a0c15f153 flexit/attention.py
import copy
import math
from abc import ABC, abstractmethod

import torch
import torch.nn as nn

from rotary import RotaryEncoding


class HeadedAttentionBase(ABC, nn.Module):
    """Shared projections and head splitting; subclasses define how scores are formed."""

    def __init__(self, n_heads: int, d_model: int, dropout: float = 0.1, mask_eps: float = -1e9) -> None:
        super().__init__()
        assert d_model % n_heads == 0, "d_model must be a multiple of n_heads"
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.projections = nn.ModuleList([copy.deepcopy(nn.Linear(d_model, d_model)) for _ in range(4)])
        self.drop = nn.Dropout(p=dropout)
        self.mask_eps = mask_eps
        self.last_weights = None

    @abstractmethod
    def attention(self, query, key, value, mask=None, dropout=None):
        raise NotImplementedError

    def _heads(self, layer, x, batch):
        return layer(x).view(batch, -1, self.n_heads, self.d_k).transpose(1, 2)

    def forward(self, query, key, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1).to(query.device)
        batch = query.size(0)
        q = self._heads(self.projections[0], query, batch)
        k = self._heads(self.projections[1], key, batch)
        v = self._heads(self.projections[2], value, batch)
        mixed, self.last_weights = self.attention(q, k, v, mask=mask, dropout=self.drop)
        mixed = mixed.transpose(1, 2).contiguous().view(batch, -1, self.n_heads * self.d_k)
        return self.projections[3](mixed)


class AbsoluteAttention(HeadedAttentionBase):
    """Plain scaled dot-product attention; positions come from the embedding."""

    def __init__(self, n_heads: int, d_model: int, dropout: float = 0.1) -> None:
        super().__init__(n_heads, d_model, dropout)

    def attention(self, query, key, value, mask=None, dropout=None):
        d_k = query.size(-1)
        logits = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
        if mask is not None:
            logits = logits.masked_fill(mask == 0, -self.mask_eps)  # expect: ATT007
        weights = logits.softmax(dim=-1)
        if dropout is not None:
            weights = dropout(weights)
        return torch.matmul(weights, value), weights


class RotaryAttention(HeadedAttentionBase):
    """Rotates a fraction of each head's query and key features before scoring."""

    def __init__(self, n_heads: int, d_model: int, dropout: float = 0.1, rope_fraction: float = 0.5) -> None:
        super().__init__(n_heads, d_model, dropout)
        rotated = int(rope_fraction * self.d_k)
        self.rotate_q = RotaryEncoding(rotated)
        self.rotate_k = RotaryEncoding(rotated)

    def attention(self, query, key, value, mask=None, dropout=None):
        d_k = query.size(-1)
        query, key = self.rotate_q(query), self.rotate_k(key)
        logits = query @ key.transpose(-2, -1) / math.sqrt(d_k)
        if mask is not None:
            logits = logits.masked_fill(mask == 0, -self.mask_eps)  # expect: ATT007
        weights = torch.softmax(logits, dim=-1)
        if dropout is not None:
            weights = dropout(weights)
        return weights @ value, weights
