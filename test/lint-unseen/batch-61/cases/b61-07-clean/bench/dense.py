# case: b61-07-clean
# modelled-on: cjyaras/monarch-attention https://github.com/cjyaras/monarch-attention/commit/22fc3e33d280f2d0f77daa98bd5bdf6796fc18a0
# label: correct
# class: clean
# pattern: the exact softmax-attention baseline of an efficient-attention benchmark (a folder: `batches.py` tokenises sentence pairs with padding and keeps the tokenizer's `attention_mask`, 1 = real token, shape (B, S); `dense.py` turns that keep mask into an additive bias `(1.0 - mask[:, None, None, :]) * finfo(dtype).min`, adds it to `q @ k.transpose(-1, -2) / sqrt(head_dim)` and takes a softmax over the keys, or, on the SDPA path, converts the same keep mask with the transformers helper `_prepare_4d_attention_mask_for_sdpa` and calls `scaled_dot_product_attention` with its default scale; the same bias code also serves `dense_matrix`, which returns the attention matrix for plots)
# why: correct: `1 - mask` is 1 exactly on padding, so the additive bias is the dtype's minimum on padded keys and 0 elsewhere (the keep mask's polarity is inverted arithmetically, once); the fill is the dtype's own minimum, finite in half precision; the scale is 1/sqrt(head_dim) on the manual path and SDPA's default (the same) on the fused one, never both; the transformers helper expects exactly a (B, S) keep mask with 1 on real tokens
# looks-like: ATT002, ATT003, ATT004, ATT007
# source: https://github.com/cjyaras/monarch-attention https://github.com/cjyaras/monarch-attention/commit/22fc3e33d280f2d0f77daa98bd5bdf6796fc18a0 common/baselines.py
from math import sqrt
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn
from transformers.modeling_attn_mask_utils import _prepare_4d_attention_mask_for_sdpa


def _additive(keep: Optional[torch.Tensor], dtype) -> Optional[torch.Tensor]:
    if keep is None:
        return None
    return (1.0 - keep[:, None, None, :].to(dtype)) * torch.finfo(dtype).min


class DenseSoftmax(nn.Module):
    """Reference (exact) attention the approximations are compared with."""

    def __init__(self, fused: bool = False):
        super().__init__()
        self.fused = fused

    def _check(self, q, k, keep):
        b, h, n, d = q.shape
        assert q.shape == k.shape
        if keep is not None:
            assert keep.shape == (b, n)
        return d

    def dense_matrix(self, q, k, keep=None):
        assert not self.fused, "the fused kernel does not expose its matrix"
        d = self._check(q, k, keep)
        scores = torch.matmul(q, k.transpose(-1, -2)) / sqrt(d)
        bias = _additive(keep, q.dtype)
        if bias is not None:
            scores = scores + bias
        return F.softmax(scores, dim=-1)

    def forward(self, q, k, v, keep=None):
        d = self._check(q, k, keep)
        if self.fused:
            bias = _prepare_4d_attention_mask_for_sdpa(keep, dtype=q.dtype) if keep is not None else None
            return F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
        scores = torch.matmul(q, k.transpose(-1, -2)) / sqrt(d)
        bias = _additive(keep, q.dtype)
        if bias is not None:
            scores = scores + bias
        return torch.matmul(F.softmax(scores, dim=-1), v)
