# case: b39-05-clean
# modelled-on: MoKholy/attention-is-all-we-need https://github.com/MoKholy/attention-is-all-we-need/commit/76c66ff53af883670cdbcb0a9ee145dcb44f5d52
# label: correct
# class: clean
# pattern: an encoder-decoder Transformer for translation written from the paper (a folder: the attention module, the mask helpers, the dataset that builds each example's masks, and the decoder layer); the helpers return masks whose True entries are blocked, (tokens == pad).unsqueeze(-2) and triu(ones, diagonal=1).bool(); the dataset returns an encoder mask (1, 1, L) and a decoder mask causal | pad of shape (1, L, L), the DataLoader adds the batch axis, and the attention's static helper does masked_fill_(mask, -inf) on (B, heads, Lq, Lk) scores divided by sqrt(head_dim) before softmax(dim=-1); cross-attention reuses the encoder mask
# why: correct: masked_fill writes -inf where the mask is True, and every mask here is True exactly on padded keys or future positions; the causal mask keeps the diagonal, and the encoder pad mask only removes keys, so no row is fully masked unless a sentence is all padding; the pad mask broadcasts over heads and query rows after the batch axis is added; keys are transposed over their last two axes for (B, heads, L, head_dim) tensors, and the scale is 1/sqrt(head_dim)
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/MoKholy/attention-is-all-we-need https://github.com/MoKholy/attention-is-all-we-need/commit/76c66ff53af883670cdbcb0a9ee145dcb44f5d52 scripts/modules/attention.py
from math import sqrt

import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float):
        super().__init__()
        assert d_model % n_heads == 0, "d_model must split evenly across the heads"
        self.n_heads = n_heads
        self.d_head = d_model // n_heads
        self.w_query = nn.Linear(d_model, d_model, bias=False)
        self.w_key = nn.Linear(d_model, d_model, bias=False)
        self.w_value = nn.Linear(d_model, d_model, bias=False)
        self.w_out = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)
        self.last_weights = None

    def split(self, x):
        b, length, _ = x.shape
        return x.view(b, length, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, query, key, value, mask):
        q = self.split(self.w_query(query))
        k = self.split(self.w_key(key))
        v = self.split(self.w_value(value))

        ctx, self.last_weights = MultiHeadAttention.scaled_attention(q, k, v, mask, self.drop)

        b, _, length, _ = ctx.shape
        ctx = ctx.transpose(1, 2).contiguous().view(b, length, self.n_heads * self.d_head)
        return self.w_out(ctx)

    @staticmethod
    def scaled_attention(q, k, v, mask, dropout):
        d_head = q.shape[-1]
        scores = (q @ k.transpose(2, 3)) / sqrt(d_head)
        if mask is not None:
            scores = scores.masked_fill_(mask, value=float("-inf"))
        weights = F.softmax(scores, dim=-1)
        if dropout:
            weights = dropout(weights)
        return weights @ v, weights
