# case: b52-10-clean
# modelled-on: abailey81/credit-default-tabular-transformer https://github.com/abailey81/credit-default-tabular-transformer/commit/ce660a68e7c80bb3f45492c555f9cb179e9e2f43
# label: correct
# class: clean
# pattern: a folder: hand-written multi-head self-attention of a small tabular transformer (a CLS token plus one token per feature): scores = Q @ K.transpose(-2, -1) / sqrt(d_k), then an optional additive bias, softmax over the last axis; dropout is applied to a copy of the weights used to mix V, and the un-dropped weights are returned for interpretation; the encoder (other file) builds the bias once per forward as the sum of an ALiBi-style temporal prior, alpha * neg_distance_masked with neg_distance_masked[i, j] = -|month(i) - month(j)| inside a feature group and 0 elsewhere (alpha zero-initialised, scalar or per head), and a learned feature-group bias B[group(i), group(j)]
# why: correct: the bias is a soft prior on the logits, added before the softmax, not a mask: its zeros mean "no prior" for CLS, demographic and cross-group pairs, and its negative entries only down-weight distant months, so nothing has to be hidden and no fill value is involved; a (T, T) or (H, T, T) bias broadcasts over (B, H, T, T); the scale is 1/sqrt(d_k) with d_k = d_model // n_heads; the returned weights are the softmax output itself, so rows sum to one; the encoder is bidirectional by design, so there is no causal mask
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/abailey81/credit-default-tabular-transformer https://github.com/abailey81/credit-default-tabular-transformer/commit/ce660a68e7c80bb3f45492c555f9cb179e9e2f43 src/models/attention.py
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn
import torch.nn.functional as F


class BiasedDotProduct(nn.Module):
    """softmax(QK^T / sqrt(d_k) + bias) V; returns the weights before dropout."""

    def __init__(self, dropout: float = 0.1):
        super().__init__()
        self.drop = nn.Dropout(dropout)

    def forward(self, q, k, v, bias: Optional[torch.Tensor] = None) -> Tuple[torch.Tensor, torch.Tensor]:
        logits = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        if bias is not None:
            logits = logits + bias  # (T, T) or (H, T, T), broadcast over batch
        weights = F.softmax(logits, dim=-1)
        mixed = torch.matmul(self.drop(weights), v)
        return mixed, weights


class FeatureTokenAttention(nn.Module):
    def __init__(self, d_model: int = 32, n_heads: int = 4, dropout: float = 0.1):
        super().__init__()
        if d_model % n_heads:
            raise ValueError("d_model must be divisible by n_heads")
        self.n_heads, self.d_k = n_heads, d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)
        self.core = BiasedDotProduct(dropout)
        for lin in (self.q_proj, self.k_proj, self.v_proj, self.o_proj):
            nn.init.xavier_normal_(lin.weight)
            nn.init.zeros_(lin.bias)

    def _heads(self, t: torch.Tensor) -> torch.Tensor:
        b, n, _ = t.shape
        return t.view(b, n, self.n_heads, self.d_k).transpose(1, 2)

    def forward(self, x: torch.Tensor, bias: Optional[torch.Tensor] = None):
        b, n, d = x.shape
        out, weights = self.core(self._heads(self.q_proj(x)), self._heads(self.k_proj(x)), self._heads(self.v_proj(x)), bias)
        out = out.transpose(1, 2).contiguous().view(b, n, d)
        return self.o_proj(out), weights
