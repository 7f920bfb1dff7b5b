# case: t13f-11-scale
# modelled-on: Mafaz03/Machine-Translation-Transformer https://github.com/Mafaz03/Machine-Translation-Transformer/commit/ad5f14518012d2b82a8abeb3d026e0d9753511ad
# label: buggy
# class: real-bug
# pattern: a Multi30k translation transformer written for a course ("you are NOT allowed to use torch.nn.MultiheadAttention"): a module-level scaled_dot_product_attention on (B, heads, seq, d_k) tensors whose division by math.sqrt(d_k) has been commented out (the line above it, also commented, still shows the scaled form), then masked_fill(mask, -inf) with ignore masks from a masks module (== pad, ORed with triu(ones, 1)) and a softmax over the last axis
# why: buggy: the scores reach the softmax without the 1/sqrt(d_k) factor the function's own name and the paper (section 3.2.1) call for, so the dot products grow with the head width and the softmax saturates; the author's next commit, "scalig corrected", restores scores = torch.matmul(Q, KT) / math.sqrt(d_k); the masks (True = padding or a future key, filled with -inf) are right
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
    # scores = torch.matmul(Q, KT) / math.sqrt(d_k)
    scores = torch.matmul(Q, KT)  # / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask, float("-inf"))
    attn_weights = torch.softmax(scores, dim=-1)  # expect: ATT003
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
