# case: b3-36-fill
# modelled-on: comsa33/transformer-from-scratch https://github.com/comsa33/transformer-from-scratch/commit/18ca0e690c9ce65f11f6ed339fa07175a65508c0
# label: correct
# class: fixed
# pattern: after the fp16 fix, a from-scratch encoder-decoder trained by its own Trainer with --fp16 (torch autocast + GradScaler); the masks come from a masking module (1 = hide: padding, look-ahead triu); scaled_dot_product_attention scales q @ k^T by 1/sqrt(d_k) and fills where mask == 1 with a large negative constant before the softmax
# why: after commit 18ca0e6 the fill is -1e4 when the scores are float16 (representable, and exp(-1e4) is 0) and -1e9 otherwise; the masks are 1 where hidden and the fill is where mask == 1; every query keeps at least its own position (the diagonal is not in the look-ahead mask and the first token is not padding)
# looks-like: ATT002, ATT004, ATT007
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
        # -1e4 for float16 (its largest value is about 65504)
        mask_value = -1e4 if scores.dtype == torch.float16 else -1e9
        scores = scores.masked_fill(mask == 1, mask_value)
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
