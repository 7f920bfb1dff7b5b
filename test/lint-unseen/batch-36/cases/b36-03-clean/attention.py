# case: b36-03-clean
# modelled-on: nabeelshan78/attention-is-all-you-need-scratch https://github.com/nabeelshan78/attention-is-all-you-need-scratch/commit/5c23e7b83d6e2eb91b987b181beb2e516f3d9f25
# label: correct
# class: clean
# pattern: an "Attention Is All You Need" translation model written from scratch: masks.py builds boolean block masks (padding: seq == pad_idx as [B, 1, 1, S]; causal: triu(ones, diagonal=1) as [1, 1, S, S]; target: their logical_or); scaled_dot_product_attention (attention.py) divides Q @ K^T by sqrt(d_k), fills the scores where the mask is True with -inf, softmaxes over the last axis and replaces NaN weights (fully blocked rows) by 0 with torch.nan_to_num; the decoder (decoder.py) passes the target mask to self-attention and the source padding mask to cross-attention
# why: correct: every mask here is True where a key must be blocked, and masked_fill(mask, -inf) blocks exactly those; the causal part is strictly above the diagonal, so each target position keeps itself; the padding mask broadcasts over heads and query rows and hides the padded keys; nan_to_num only affects rows with no visible key; the scale is the per-head d_k
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/nabeelshan78/attention-is-all-you-need-scratch https://github.com/nabeelshan78/attention-is-all-you-need-scratch/commit/5c23e7b83d6e2eb91b987b181beb2e516f3d9f25 attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_dot_product_attention(Q, K, V, mask=None, dropout=None):
    """Q: [B, H, S_q, d_k], K: [B, H, S_k, d_k], V: [B, H, S_k, d_v]; mask True = block."""
    d_k = Q.size(-1)
    scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    weights = F.softmax(scores, dim=-1)
    # a row whose every key is blocked gives NaN; turn it into zeros
    weights = torch.nan_to_num(weights, nan=0.0)
    if dropout is not None:
        weights = dropout(weights)
    return torch.matmul(weights, V), weights


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int = 512, n_heads: int = 8, dropout: float = 0.1):
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads, self.d_k = n_heads, d_model // n_heads
        self.W_Q = nn.Linear(d_model, d_model)
        self.W_K = nn.Linear(d_model, d_model)
        self.W_V = nn.Linear(d_model, d_model)
        self.W_O = nn.Linear(d_model, d_model)
        self.attn_dropout = nn.Dropout(p=dropout)

    def _heads(self, x):
        B, S, _ = x.shape
        return x.view(B, S, self.n_heads, self.d_k).transpose(1, 2)

    def forward(self, Q, K, V, mask=None):
        out, self.attention_weights = scaled_dot_product_attention(
            self._heads(self.W_Q(Q)), self._heads(self.W_K(K)), self._heads(self.W_V(V)), mask=mask, dropout=self.attn_dropout
        )
        B, _, S, _ = out.shape
        return self.W_O(out.transpose(1, 2).contiguous().view(B, S, self.n_heads * self.d_k))
