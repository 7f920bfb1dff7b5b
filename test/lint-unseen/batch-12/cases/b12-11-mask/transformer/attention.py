# case: b12-11-mask
# modelled-on: AkshatS123/Transformer-from-scratch https://github.com/AkshatS123/Transformer-from-scratch/commit/833f8a86fe20a439d18a5b3e7bf357f9c1f4aaac
# label: correct
# class: fixed
# pattern: the same transformer after its fix: the masks module still builds the decoder's causal mask as an additive float mask (0.0 allowed, -inf above the diagonal) and the source padding mask as a boolean keep mask; the scaled dot-product module now applies a boolean mask with masked_fill(mask == 0, -1e9) and adds a float mask to the scores; greedy generation passes the float causal mask expanded to the batch
# why: correct: boolean keep masks are False at padding, so == 0 hides padding; the float causal mask is already additive, so adding it leaves the past unchanged and sends the future to -inf, and every row keeps its diagonal; the scale is the per-head d_k; what a naive linter could misread: ATT002 (a keep mask compared with == 0 next to an additive mask, a triu mask built with masked_fill(mask == 1, -inf)), ATT007 (-inf and -1e9), ATT004
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/AkshatS123/Transformer-from-scratch https://github.com/AkshatS123/Transformer-from-scratch/commit/833f8a86fe20a439d18a5b3e7bf357f9c1f4aaac transformer/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProductAttention(nn.Module):
    """Attention(Q, K, V) = softmax(Q K^T / sqrt(d_k)) V"""

    def __init__(self, d_k: int, dropout: float = 0.1):
        super().__init__()
        self.d_k = d_k
        self.dropout = nn.Dropout(dropout)

    def forward(self, Q, K, V, mask=None):
        scores = torch.matmul(Q, K.transpose(-2, -1))
        scores = scores / math.sqrt(self.d_k)
        if mask is not None:
            if mask.dtype == torch.bool:
                scores = scores.masked_fill(mask == 0, -1e9)
            else:
                scores = scores + mask
        weights = self.dropout(F.softmax(scores, dim=-1))
        return torch.matmul(weights, V), weights


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.attention = ScaledDotProductAttention(self.d_k, dropout)

    def forward(self, Q, K, V, mask=None):
        b = Q.size(0)
        Q = self.W_q(Q).view(b, -1, self.num_heads, self.d_k).transpose(1, 2)
        K = self.W_k(K).view(b, -1, self.num_heads, self.d_k).transpose(1, 2)
        V = self.W_v(V).view(b, -1, self.num_heads, self.d_k).transpose(1, 2)
        if mask is not None:
            mask = mask.unsqueeze(1).repeat(1, self.num_heads, 1, 1)  # (B, H, T or 1, S)
        out, weights = self.attention(Q, K, V, mask)
        out = out.transpose(1, 2).contiguous().view(b, -1, self.num_heads * self.d_k)
        return self.W_o(out), weights
