# case: b21-09-mask
# modelled-on: rexrex9/nlp_torchtext https://github.com/rexrex9/nlp_torchtext/commit/5b35618b3dc43eb14d8263e7b9b9d0f0591d1c18
# label: buggy
# class: real-bug
# pattern: a teaching transformer built from single-head modules (per-head width h_dim, multi-head = concatenation + Linear): each head computes Q @ K.permute(0, 2, 1) / h_dim ** 0.5 and, when a mask is given, masked_fill(mask == 0, -1e9) before the softmax over the last axis, the comment saying positions where the mask is 0 are covered; the decoder gets its mask from a helper in another module, torch.triu(torch.ones((1, size, size))) == 0, and passes it to every layer's self-attention
# why: buggy: triu(ones) includes the diagonal, so == 0 is True only strictly below it; filling where the mask is 0 blocks each position's own key as well as the future, and the first row is blocked entirely (all -1e9, so its softmax is uniform over every key, the future included). The decoder mask the helper means is the annotated transformer's triu(ones, diagonal=1) == 0. No fix exists
# source: https://github.com/rexrex9/nlp_torchtext https://github.com/rexrex9/nlp_torchtext/commit/5b35618b3dc43eb14d8263e7b9b9d0f0591d1c18 transformer/transformer.py
import math

import torch
from torch import nn

from tfmr.masks import subsequent_mask


class OneHeadAttention(nn.Module):
    def __init__(self, e_dim, h_dim):
        super().__init__()
        self.h_dim = h_dim
        self.lQ = nn.Linear(e_dim, h_dim)
        self.lK = nn.Linear(e_dim, h_dim)
        self.lV = nn.Linear(e_dim, h_dim)

    def forward(self, seq_inputs, mask=None):
        Q = self.lQ(seq_inputs)  # [batch, seq_lens, h_dim]
        K = self.lK(seq_inputs)
        V = self.lV(seq_inputs)
        QK = torch.matmul(Q, K.permute(0, 2, 1))  # [batch, seq_lens, seq_lens]
        QK /= self.h_dim ** 0.5
        # positions where the mask is 0 are covered with -1e9
        if mask is not None:
            QK = QK.masked_fill(mask == 0, -1e9)  # expect: ATT002
        a = torch.softmax(QK, dim=-1)
        return torch.matmul(a, V)


class MultiHeadAttentionLayer(nn.Module):
    def __init__(self, e_dim, h_dim, n_heads):
        super().__init__()
        self.heads = nn.ModuleList([OneHeadAttention(e_dim, h_dim) for _ in range(n_heads)])
        self.out = nn.Linear(h_dim * n_heads, e_dim)

    def forward(self, seq_inputs, mask=None):
        return self.out(torch.cat([head(seq_inputs, mask) for head in self.heads], dim=-1))


class PositionalEncoding(nn.Module):
    def __init__(self, e_dim, max_len=512):
        super().__init__()
        pe = torch.zeros(max_len, e_dim)
        position = torch.arange(0, max_len).unsqueeze(1).float()
        div = torch.exp(torch.arange(0, e_dim, 2).float() * -(math.log(10000.0) / e_dim))
        pe[:, 0::2] = torch.sin(position * div)
        pe[:, 1::2] = torch.cos(position * div)
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        return x + self.pe[:, : x.size(1)]


class DecoderLayer(nn.Module):
    def __init__(self, e_dim, h_dim, n_heads, drop_rate=0.1):
        super().__init__()
        self.self_attention = MultiHeadAttentionLayer(e_dim, h_dim, n_heads)
        self.sa_LN = nn.LayerNorm(e_dim)
        self.ff = nn.Sequential(nn.Linear(e_dim, e_dim // 2), nn.ReLU(), nn.Linear(e_dim // 2, e_dim))
        self.ff_LN = nn.LayerNorm(e_dim)
        self.drop = nn.Dropout(drop_rate)

    def forward(self, seq_inputs, mask):
        outs = self.sa_LN(seq_inputs + self.drop(self.self_attention(seq_inputs, mask=mask)))
        return self.ff_LN(outs + self.drop(self.ff(outs)))


class TransformerDecoder(nn.Module):
    def __init__(self, e_dim, h_dim, n_heads, n_layers, n_classes, drop_rate=0.1):
        super().__init__()
        self.position_encoding = PositionalEncoding(e_dim)
        self.layers = nn.ModuleList([DecoderLayer(e_dim, h_dim, n_heads, drop_rate) for _ in range(n_layers)])
        self.linear = nn.Linear(e_dim, n_classes)

    def forward(self, seq_inputs):
        seq_inputs = self.position_encoding(seq_inputs)
        mask = subsequent_mask(seq_inputs.shape[1])
        for layer in self.layers:
            seq_inputs = layer(seq_inputs, mask)
        return self.linear(seq_inputs)
