# case: t20m-03-clean
# modelled-on: dumitrescustefan/sustain-seq2seq https://github.com/dumitrescustefan/sustain-seq2seq/commit/cf6e36173461f57e3d9f51d5deda3b61568c67d7
# label: correct
# class: clean
# pattern: the multi-head attention of an LSTM seq2seq decoder that attends from its outputs so far to the encoder outputs: a custom query width is projected to d_model, heads are split with view + transpose(1, 2), the scores are q @ k.transpose(-2, -1) / sqrt(d_head); the encoder padding mask comes as (batch, enc_seq_len) of 1s and 0s, is unsqueezed twice to (batch, 1, 1, enc_seq_len) and applied with masked_fill(mask == 0, -1e9) before a dim=-1 softmax
# why: correct: the mask is a keep mask for the keys (encoder positions) and == 0 hides the padding; two unsqueeze(1) calls put it on the key axis of the (batch, heads, dec_len, enc_len) scores; the scale uses the per-head width; -1e9 is finite in float32 (no half precision here)
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/dumitrescustefan/sustain-seq2seq https://github.com/dumitrescustefan/sustain-seq2seq/commit/cf6e36173461f57e3d9f51d5deda3b61568c67d7 models/components/attention/MultiHeadAttention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossHeads(nn.Module):
    """
    Inputs: encoder outputs [batch, enc_len, d_model], decoder outputs so far [batch, dec_len, query_size],
    mask [batch, enc_len] of 1s (tokens) and 0s (encoder padding), for the keys.
    Output: [batch, dec_len, d_model].
    """

    def __init__(self, d_model, num_heads, dropout=0.1, query_size=None):
        super().__init__()
        assert d_model % num_heads == 0, "d_model must be a multiple of num_heads"
        self.d_model = d_model
        self.d_head = d_model // num_heads
        self.num_heads = num_heads
        self.q_linear = nn.Linear(query_size if query_size is not None else d_model, d_model)
        self.k_linear = nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask=None):
        bs = q.size(0)
        q = self.q_linear(q).view(bs, -1, self.num_heads, self.d_head).transpose(1, 2)
        k = self.k_linear(k).view(bs, -1, self.num_heads, self.d_head).transpose(1, 2)
        v = self.v_linear(v).view(bs, -1, self.num_heads, self.d_head).transpose(1, 2)
        ctx = self._attend(q, k, v, self.d_head, mask, self.dropout)
        concat = ctx.transpose(1, 2).contiguous().view(bs, -1, self.d_model)
        return self.out(concat)

    def _attend(self, q, k, v, d_k, mask=None, dropout=None):
        # scores: [batch, heads, dec_len, enc_len]
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
        if mask is not None:
            mask = mask.unsqueeze(1).unsqueeze(1)  # [batch, 1, 1, enc_len]
            scores = scores.masked_fill(mask == 0, -1e9)
        scores = F.softmax(scores, dim=-1)
        if dropout is not None:
            scores = dropout(scores)
        return torch.matmul(scores, v)


if __name__ == "__main__":
    enc = torch.rand(3, 5, 6)
    dec = torch.rand(3, 4, 8)
    mask = torch.tensor([[1, 1, 1, 1, 0], [1, 1, 1, 0, 0], [1, 0, 0, 0, 0]], dtype=torch.uint8)
    layer = CrossHeads(d_model=6, num_heads=2, dropout=0.0, query_size=8)
    print(layer(dec, enc, enc, mask=mask).shape)
