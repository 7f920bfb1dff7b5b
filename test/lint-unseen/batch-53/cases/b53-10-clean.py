# case: b53-10-clean
# modelled-on: Alice-52/Transformer_Attention_Comparison https://github.com/Alice-52/Transformer_Attention_Comparison/commit/37f13bd7543442ad1110f3226452bc660c6c1c52
# label: correct
# class: clean
# pattern: the single-head baseline of an attention comparison for text classification: full-width query/key/value projections, a head axis of size one added with unsqueeze(1), a [B, L] boolean padding mask (True = real token) reshaped to [B, 1, 1, L] and applied with masked_fill(~mask, -inf)
# why: correct: with one head the query/key width is the whole model width, so dividing by sqrt(d_model) is 1/sqrt(d_k); the mask is True on real tokens and the fill goes where it is False, so only padding keys are hidden; the softmax runs over the last (key) axis of [B, 1, L, L]; nan_to_num only touches rows whose keys are all padding (empty sequences), which the classifier's masked mean ignores
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/Alice-52/Transformer_Attention_Comparison https://github.com/Alice-52/Transformer_Attention_Comparison/commit/37f13bd7543442ad1110f3226452bc660c6c1c52 src/attention.py
from typing import Optional

import torch
from torch import nn


def to_four_dims(real: torch.Tensor) -> torch.Tensor:
    """[B, L] -> [B, 1, 1, L]; [B, L, L] -> [B, 1, L, L]; a 4-D mask is returned as it is."""
    if real.dim() == 2:
        return real[:, None, None, :]
    if real.dim() == 3:
        return real.unsqueeze(1)
    return real


class OneHeadAttention(nn.Module):
    """Baseline: a single head as wide as the model."""

    def __init__(self, d_model: int, dropout: float = 0.1):
        super().__init__()
        self.d_model = d_model
        self.proj_q = nn.Linear(d_model, d_model)
        self.proj_k = nn.Linear(d_model, d_model)
        self.proj_v = nn.Linear(d_model, d_model)
        self.proj_out = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor, real: Optional[torch.Tensor] = None) -> torch.Tensor:
        # a head axis of size one so that masks and shapes match the multi-head variants
        q = self.proj_q(x).unsqueeze(1)
        k = self.proj_k(x).unsqueeze(1)
        v = self.proj_v(x).unsqueeze(1)

        scores = torch.matmul(q, k.transpose(-1, -2)) / self.d_model ** 0.5
        if real is not None:
            scores = scores.masked_fill(~to_four_dims(real), float("-inf"))
        weights = torch.nan_to_num(scores.softmax(dim=-1), nan=0.0)

        ctx = torch.matmul(weights, v)
        if ctx.dim() == 4:
            ctx = ctx.squeeze(1) if ctx.size(1) == 1 else ctx.mean(dim=1)
        return self.proj_out(self.dropout(ctx))


def masked_mean(h: torch.Tensor, real: torch.Tensor) -> torch.Tensor:
    w = real.unsqueeze(-1).to(h.dtype)
    return (h * w).sum(dim=1) / w.sum(dim=1).clamp(min=1.0)
