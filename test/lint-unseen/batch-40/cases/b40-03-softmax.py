# case: b40-03-softmax
# modelled-on: AaronCCWong/transformer-network-with-back-translation https://github.com/AaronCCWong/transformer-network-with-back-translation/commit/67990626115243ffd44230ef220b1ad5b97dfe18
# label: buggy
# class: real-bug
# pattern: encoder self-attention of a from-scratch Transformer for translation with fixed sizes (model width 512, 8 heads of 64): queries, keys and values are projected, viewed as (batch, heads, tokens, 64), scored with Q K^T / sqrt(d_k), padding filled with -1e9 through a (batch, 1, keys) mask unsqueezed to the head axis, normalised by an nn.Softmax module built in __init__ and used to weight the values; an encoder layer applies it with a residual and layer norm
# why: buggy: nn.Softmax() is built without dim, and for the 4-D scores (batch, heads, queries, keys) PyTorch's implicit choice is dim=1, the head axis, so each position's weights are normalised across the 8 heads instead of across the keys (PyTorch warns that the implicit dimension is deprecated); the author's next commit (7368229) builds nn.Softmax(dim=-1), the key axis scaled dot-product attention normalises over
# source: https://github.com/AaronCCWong/transformer-network-with-back-translation https://github.com/AaronCCWong/transformer-network-with-back-translation/commit/73682297c5453901646565f37a05d3cb11b80284 attention.py
import numpy as np
import torch
import torch.nn as nn

MODEL_WIDTH = 512
HEADS = 8
HEAD_WIDTH = MODEL_WIDTH // HEADS


class DotProductAttention(nn.Module):
    def __init__(self):
        super(DotProductAttention, self).__init__()
        self.softmax = nn.Softmax()  # expect: ATT001

    def forward(self, q, k, v, mask=None):
        d_k = q.size(-1)
        energies = torch.matmul(q, k.transpose(-2, -1)) / np.sqrt(d_k)
        if mask is not None:
            energies = energies.masked_fill(mask.unsqueeze(1) == 0, -1e9)
        return torch.matmul(self.softmax(energies), v)


class MultiHeadSelfAttention(nn.Module):
    def __init__(self):
        super(MultiHeadSelfAttention, self).__init__()
        self.w_q = nn.Linear(MODEL_WIDTH, MODEL_WIDTH)
        self.w_k = nn.Linear(MODEL_WIDTH, MODEL_WIDTH)
        self.w_v = nn.Linear(MODEL_WIDTH, MODEL_WIDTH)
        self.core = DotProductAttention()
        self.w_o = nn.Linear(MODEL_WIDTH, MODEL_WIDTH)

    def _split(self, layer, x):
        return layer(x).view(x.size(0), -1, HEADS, HEAD_WIDTH).transpose(1, 2)

    def forward(self, queries, keys, values, mask=None):
        n = queries.size(0)
        heads_out = self.core(self._split(self.w_q, queries), self._split(self.w_k, keys), self._split(self.w_v, values), mask)
        return self.w_o(heads_out.transpose(1, 2).contiguous().view(n, -1, MODEL_WIDTH))


class EncoderBlock(nn.Module):
    def __init__(self, p_dropout=0.1):
        super(EncoderBlock, self).__init__()
        self.attend = MultiHeadSelfAttention()
        self.norm = nn.LayerNorm(MODEL_WIDTH)
        self.drop = nn.Dropout(p_dropout)

    def forward(self, x, src_mask=None):
        # src_mask: (batch, 1, tokens), True where the token is not padding
        return self.norm(x + self.drop(self.attend(x, x, x, src_mask)))
