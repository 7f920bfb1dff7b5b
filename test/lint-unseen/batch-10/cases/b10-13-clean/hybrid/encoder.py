# case: b10-13-clean
# modelled-on: NHMDenmark/HTROCR https://github.com/NHMDenmark/HTROCR/commit/4667fbe
# label: correct
# class: clean
# pattern: an image-line encoder whose padding keep mask (1 = real image column, pooled to the sequence length) is built in the collate function and filled where it is 0, with a fill chosen from the scores' dtype (-9e15 in float32, -1e4 otherwise); the trainer in another file runs in precision='16-mixed'
# why: commit 4667fbe switched training to 16-mixed and made the fill depend on the dtype at the same time; under autocast the projections give float16 scores, which take the -1e4 branch, and -9e15 is only used for float32 scores, where it fits; mask == 0 marks the padded columns the collate function wrote as 0
# looks-like: ATT002, ATT007
# source: https://github.com/NHMDenmark/HTROCR https://github.com/NHMDenmark/HTROCR/commit/4667fbe nhmd_hybrid/encoder.py
import math

import torch
import torch.nn.functional as F
from torch import nn


def scaled_dot_product(q, k, v, mask=None):
    """Attention(Q, K, V) for [Batch, Head, SeqLen, Dims]; mask: [Batch, SeqLen], 1 on real positions."""
    d_k = q.size()[-1]
    attn_logits = torch.matmul(q, k.transpose(-2, -1))
    attn_logits = attn_logits / math.sqrt(d_k)
    if mask is not None:
        mask = mask.unsqueeze(1).unsqueeze(1)
        masking_value = -9e15 if attn_logits.dtype == torch.float32 else -1e4
        attn_logits = attn_logits.masked_fill(mask == 0, masking_value)
    attention = F.softmax(attn_logits, dim=-1)
    return torch.matmul(attention, v), attention


class MultiheadAttention(nn.Module):
    def __init__(self, input_dim, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0, "Embedding dimension must be 0 modulo number of heads."
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.qkv_proj = nn.Linear(input_dim, 3 * embed_dim)
        self.o_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x, mask=None):
        batch_size, seq_length, _ = x.size()
        qkv = self.qkv_proj(x).reshape(batch_size, seq_length, self.num_heads, 3 * self.head_dim)
        q, k, v = qkv.permute(0, 2, 1, 3).chunk(3, dim=-1)  # [Batch, Head, SeqLen, Dims]
        values, _ = scaled_dot_product(q, k, v, mask=mask)
        values = values.permute(0, 2, 1, 3).reshape(batch_size, seq_length, self.embed_dim)
        return self.o_proj(values)


class EncoderBlock(nn.Module):
    def __init__(self, input_dim, num_heads, feedforward_dim, dropout=0.0):
        super().__init__()
        self.self_attn = MultiheadAttention(input_dim, input_dim, num_heads)
        self.ff = nn.Sequential(nn.Linear(input_dim, feedforward_dim), nn.ReLU(inplace=True), nn.Linear(feedforward_dim, input_dim))
        self.norm1 = nn.LayerNorm(input_dim)
        self.norm2 = nn.LayerNorm(input_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None):
        x = self.norm1(x + self.dropout(self.self_attn(x, mask=mask)))
        return self.norm2(x + self.dropout(self.ff(x)))
