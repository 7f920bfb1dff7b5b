# case: b3-35-fill
# modelled-on: comsa33/transformer-from-scratch https://github.com/comsa33/transformer-from-scratch/commit/18ca0e690c9ce65f11f6ed339fa07175a65508c0
# label: buggy
# class: real-bug
# pattern: a from-scratch encoder-decoder trained by its own Trainer with --fp16 (torch autocast + GradScaler); the masks come from a masking module (1 = hide: padding, look-ahead triu); scaled_dot_product_attention scales q @ k^T by 1/sqrt(d_k) and fills where mask == 1 with a large negative constant before the softmax
# why: under autocast the scores are float16, and -1e9 is far outside float16's range (about 65504), so masked_fill raises "value cannot be converted to type at::Half without overflow" in every fp16 training step; commit 18ca0e6 ("FP16 compatibility") uses -1e4 when the scores are float16, with a comment giving the reason
# source: https://github.com/comsa33/transformer-from-scratch https://github.com/comsa33/transformer-from-scratch/commit/18ca0e690c9ce65f11f6ed339fa07175a65508c0 transformer/layers/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_dot_product_attention(query, key, value, mask=None, dropout=None, scale=None):
    """Attention(Q, K, V) = softmax(QK^T / sqrt(d_k)) V; mask: [..., seq_len_q, seq_len_k], 1 = masked."""
    d_k = query.size(-1)
    if scale is None:
        scale = 1.0 / math.sqrt(d_k)
    scores = torch.matmul(query, key.transpose(-2, -1))
    scores = scores * scale
    if mask is not None:
        # a very small value where the mask is 1
        scores = scores.masked_fill(mask == 1, -1e9)  # expect: ATT007
    attention_weights = F.softmax(scores, dim=-1)
    if dropout is not None:
        attention_weights = dropout(attention_weights)
    return torch.matmul(attention_weights, value), attention_weights


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)
        self.attention_dropout = nn.Dropout(dropout)

    def forward(self, query, key, value, mask=None):
        b = query.size(0)
        q = self.w_q(query).view(b, -1, self.num_heads, self.d_k).transpose(1, 2)
        k = self.w_k(key).view(b, -1, self.num_heads, self.d_k).transpose(1, 2)
        v = self.w_v(value).view(b, -1, self.num_heads, self.d_k).transpose(1, 2)
        out, _ = scaled_dot_product_attention(q, k, v, mask, self.attention_dropout)
        out = out.transpose(1, 2).contiguous().view(b, -1, self.num_heads * self.d_k)
        return self.w_o(out)
