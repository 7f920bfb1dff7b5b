# case: t44ee-13-clean
# modelled-on: muhammed786fiyas/Transformer-NMT-Implementation-Ablation-Study https://github.com/muhammed786fiyas/Transformer-NMT-Implementation-Ablation-Study/commit/7f5bd324d890d3121e48f2b93d1941baef8d687c
# label: correct
# class: clean
# pattern: an ablation-study Transformer for translation: the mask helpers return boolean masks that are True where a position is hidden (`src == pad_idx` as (B, 1, 1, S); `pad | triu(ones, diagonal=1)` for the target), the attention fills them with -1e9 by masked_fill, and the scale can be switched off for an experiment (`use_scaling=False`, default True); the vocabulary (another file) puts <pad> at index 1, and the collate function pads with it
# why: correct: masked_fill hides where the mask is True, which is padding and the future; pad_idx=1 matches the vocabulary's <pad>; -1e9 is a float32 fill and nothing runs in half precision; the target rows keep their diagonal unless the query itself is padding, and -1e9 is finite so such rows stay uniform
# looks-like: ATT002, ATT003, ATT007
# source: https://github.com/muhammed786fiyas/Transformer-NMT-Implementation-Ablation-Study https://github.com/muhammed786fiyas/Transformer-NMT-Implementation-Ablation-Study/commit/7f5bd324d890d3121e48f2b93d1941baef8d687c model.py
import math
from typing import Optional

import torch
import torch.nn as nn


def attend(Q, K, V, hide: Optional[torch.Tensor] = None, use_scaling: bool = True):
    """softmax(Q K^T / sqrt(d_k)) V; `use_scaling=False` is the no-scale ablation."""
    logits = torch.matmul(Q, K.transpose(-2, -1))
    if use_scaling:
        logits = logits / math.sqrt(Q.size(-1))
    if hide is not None:
        logits = logits.masked_fill(hide, -1e9)
    weights = torch.softmax(logits, dim=-1)
    return torch.matmul(weights, V), weights


def source_mask(src, pad_idx: int = 1):
    """(B, 1, 1, S), True at <pad>."""
    return (src == pad_idx).unsqueeze(1).unsqueeze(2)


def target_mask(tgt, pad_idx: int = 1):
    """(B, 1, T, T), True at <pad> keys or future positions."""
    n = tgt.shape[1]
    pad = (tgt == pad_idx).unsqueeze(1).unsqueeze(2)
    future = torch.triu(torch.ones(n, n, device=tgt.device, dtype=torch.bool), diagonal=1)
    return pad | future.unsqueeze(0).unsqueeze(1)


class HeadsAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1, use_scaling=True):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads, self.d_k, self.use_scaling = n_heads, d_model // n_heads, use_scaling
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.o_proj = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)
        self.last_weights = None

    def forward(self, query, key, value, hide=None):
        b = query.size(0)
        q = self.q_proj(query).view(b, -1, self.n_heads, self.d_k).transpose(1, 2)
        k = self.k_proj(key).view(b, -1, self.n_heads, self.d_k).transpose(1, 2)
        v = self.v_proj(value).view(b, -1, self.n_heads, self.d_k).transpose(1, 2)
        out, w = attend(q, k, v, hide, self.use_scaling)
        self.last_weights = w.detach()
        out = out.transpose(1, 2).contiguous().view(b, -1, self.n_heads * self.d_k)
        return self.drop(self.o_proj(out))
