# case: t13f-12-scale
# modelled-on: Mafaz03/Machine-Translation-Transformer https://github.com/Mafaz03/Machine-Translation-Transformer/commit/f0f7ba9093c2bd0e5fe3eeaff11ce67ac9001ffe
# label: correct
# class: fixed
# pattern: the same course transformer after the fix "scalig corrected": scaled_dot_product_attention divides matmul(Q, K^T) by math.sqrt(d_k) with d_k = K.shape[-1] (the per-head width) before masked_fill(mask, -inf) with ignore masks (== pad, ORed with triu(ones, 1)) from a masks module and a softmax over the last axis; the embeddings are multiplied by sqrt(d_model) as in the paper
# why: correct: the scores are scaled once by 1/sqrt of the per-head width before the softmax; the masks are True exactly where a key is padding or in the future and masked_fill puts -inf there; the diagonal is never masked for real tokens; the sqrt(d_model) factor multiplies the embeddings, not the attention scores; what a naive linter could misread: ATT004 (a second sqrt(d_model) factor in the same file, d_k read from K.shape), ATT002 (== pad ORed with triu passed to masked_fill without inversion, masks in another module), ATT007 (-inf fill), ATT005 (K.transpose(-2, -1) bound to KT)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/Mafaz03/Machine-Translation-Transformer https://github.com/Mafaz03/Machine-Translation-Transformer/commit/f0f7ba9093c2bd0e5fe3eeaff11ce67ac9001ffe model.py
import math
from typing import Optional, Tuple

import torch
import torch.nn as nn

from masks import make_src_mask, make_tgt_mask


def scaled_dot_product_attention(Q, K, V, mask: Optional[torch.Tensor] = None, dropout=None) -> Tuple[torch.Tensor, torch.Tensor]:
    # Q, K: (B, heads, seq, d_k); V: (B, heads, seq_k, d_v)
    d_k = K.shape[-1]
    KT = K.transpose(-2, -1)
    scores = torch.matmul(Q, KT) / math.sqrt(d_k)  # (B, heads, seq_q, seq_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    attn_weights = torch.softmax(scores, dim=-1)
    if dropout is not None:
        attn_weights = dropout(attn_weights)
    return torch.matmul(attn_weights, V), attn_weights


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.d_k = d_model // num_heads
        self.h = num_heads
        self.W_Q = nn.Linear(d_model, d_model)
        self.W_K = nn.Linear(d_model, d_model)
        self.W_V = nn.Linear(d_model, d_model)
        self.W_O = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, q, k, v, mask=None):
        B = q.size(0)
        Q = self.W_Q(q).view(B, -1, self.h, self.d_k).transpose(1, 2)
        K = self.W_K(k).view(B, -1, self.h, self.d_k).transpose(1, 2)
        V = self.W_V(v).view(B, -1, self.h, self.d_k).transpose(1, 2)
        out, _ = scaled_dot_product_attention(Q, K, V, mask, self.dropout)
        return self.W_O(out.transpose(1, 2).contiguous().view(B, -1, self.h * self.d_k))


class Seq2Seq(nn.Module):
    def __init__(self, vocab: int, d_model: int = 256, heads: int = 8, pad_idx: int = 1):
        super().__init__()
        self.pad_idx = pad_idx
        self.embed = nn.Embedding(vocab, d_model, padding_idx=pad_idx)
        self.enc = MultiHeadAttention(d_model, heads)
        self.dec_self = MultiHeadAttention(d_model, heads)
        self.dec_cross = MultiHeadAttention(d_model, heads)
        self.out = nn.Linear(d_model, vocab)

    def forward(self, src, tgt):
        src_mask = make_src_mask(src, self.pad_idx)
        tgt_mask = make_tgt_mask(tgt, self.pad_idx)
        s = self.embed(src) * math.sqrt(self.embed.embedding_dim)
        memory = s + self.enc(s, s, s, src_mask)
        y = self.embed(tgt) * math.sqrt(self.embed.embedding_dim)
        y = y + self.dec_self(y, y, y, tgt_mask)
        y = y + self.dec_cross(y, memory, memory, src_mask)
        return self.out(y)
