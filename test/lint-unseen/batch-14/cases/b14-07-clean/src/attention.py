# case: b14-07-clean
# modelled-on: b1luu/attention-from-scratch https://github.com/b1luu/attention-from-scratch/commit/681cdbc366572d76cc30512f48a9ed40a8a7a19b
# label: correct
# class: clean
# pattern: a study repository's multi-head attention with a module-level scaled-dot-product function whose boolean mask is documented as True = ignored: the function divides Q @ K.transpose(-2, -1) by sqrt of the query's last axis and fills -inf where the mask is True; the layer asserts a 3-D (batch, seq, seq) mask, unsqueezes it to broadcast over heads and splits d_model into heads with view + transpose(1, 2); the tests (another file) build the mask as zeros with True on the keys to block and check that those keys get zero weight
# why: correct: masked_fill(mask, -inf) fills exactly the positions the docstring and the tests call ignored, so the polarity is the one the callers use (the opposite of SDPA's boolean attn_mask, which this code never calls); the function receives per-head tensors, so Q.shape[-1] is d_k; every row the tests build keeps at least one key, so the -inf fill cannot produce an all -inf row there; what a naive linter could misread: ATT002 (masked_fill with the mask itself, not mask == 0), ATT007 (-inf), ATT004 (a scale read from the query)
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/b1luu/attention-from-scratch https://github.com/b1luu/attention-from-scratch/commit/681cdbc366572d76cc30512f48a9ed40a8a7a19b src/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_dot_product_attention(Q, K, V, mask=None):
    """Q, K: (batch, heads, seq, d_k); V: (batch, heads, seq, d_v); mask: bool, True = ignored."""
    d_k = Q.shape[-1]
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = F.softmax(scores, dim=-1)
    return torch.matmul(weights, V), weights


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int):
        assert d_model % num_heads == 0, f"d_model ({d_model}) must be divisible by num_heads ({num_heads})"
        super().__init__()
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.W_Q = nn.Linear(d_model, d_model)
        self.W_K = nn.Linear(d_model, d_model)
        self.W_V = nn.Linear(d_model, d_model)
        self.W_O = nn.Linear(d_model, d_model)

    def forward(self, Q, K, V, mask=None):
        if mask is not None:
            assert mask.dim() == 3, f"mask must be (batch, seq, seq), got {mask.shape}"
            mask = mask.unsqueeze(1)  # broadcast over heads
        Q = self._split_heads(self.W_Q(Q))
        K = self._split_heads(self.W_K(K))
        V = self._split_heads(self.W_V(V))
        out, weights = scaled_dot_product_attention(Q, K, V, mask)
        return self.W_O(self._merge_heads(out)), weights

    def _split_heads(self, x):
        b, s, _ = x.shape
        return x.view(b, s, self.num_heads, self.d_k).transpose(1, 2)

    def _merge_heads(self, x):
        b, _, s, _ = x.shape
        return x.transpose(1, 2).contiguous().view(b, s, self.d_model)
