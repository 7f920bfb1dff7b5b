# case: b40-04-softmax
# modelled-on: AaronCCWong/transformer-network-with-back-translation https://github.com/AaronCCWong/transformer-network-with-back-translation/commit/73682297c5453901646565f37a05d3cb11b80284
# label: correct
# class: fixed
# pattern: the same translation Transformer's attention sublayer after the author's refactor: fixed sizes (512 wide, 8 heads of 64), projections viewed as (batch, heads, tokens, 64), Q K^T / sqrt(d_k), padding filled with -1e9 through the (batch, 1, keys) mask unsqueezed over the heads, an nn.Softmax(dim=-1) module built in __init__, then the output projection, dropout and a residual layer norm inside the sublayer; a decoder uses it for masked self-attention and for cross-attention over the encoder output
# why: correct: the softmax module normalises over the last axis, the keys, of the (batch, heads, queries, keys) scores; the -1e9 fill with mask == 0 hides the padded (or future) keys of a mask that is True where attention is allowed; the scale is the head width
# looks-like: ATT001, ATT002
# source: https://github.com/AaronCCWong/transformer-network-with-back-translation https://github.com/AaronCCWong/transformer-network-with-back-translation/commit/73682297c5453901646565f37a05d3cb11b80284 attention.py
import numpy as np
import torch
import torch.nn as nn


class ScaledScores(nn.Module):
    def __init__(self):
        super(ScaledScores, self).__init__()
        self.normalise = nn.Softmax(dim=-1)

    def forward(self, queries, keys, values, mask=None):
        qk_t = torch.matmul(queries, keys.transpose(-2, -1))
        qk_t = qk_t / np.sqrt(queries.size(-1))
        if mask is not None:
            keep = mask.unsqueeze(1)
            qk_t = qk_t.masked_fill(keep == 0, -1e9)
        weights = self.normalise(qk_t)
        return torch.matmul(weights, values)


class AttentionSublayer(nn.Module):
    """Multi-head attention with its own dropout, residual connection and layer norm."""

    def __init__(self, p_dropout=0.1):
        super(AttentionSublayer, self).__init__()
        self.proj_q, self.proj_k, self.proj_v = (nn.Linear(512, 512) for _ in range(3))
        self.scores = ScaledScores()
        self.proj_out = nn.Linear(512, 512)
        self.dropout = nn.Dropout(p_dropout)
        self.layer_norm = nn.LayerNorm(512)

    def forward(self, queries, keys, values, mask=None):
        residual = queries
        bsz = queries.size(0)
        q = self.proj_q(queries).view(bsz, -1, 8, 64).transpose(1, 2)
        k = self.proj_k(keys).view(bsz, -1, 8, 64).transpose(1, 2)
        v = self.proj_v(values).view(bsz, -1, 8, 64).transpose(1, 2)
        merged = self.scores(q, k, v, mask).transpose(1, 2).contiguous().view(bsz, -1, 512)
        return self.layer_norm(self.dropout(self.proj_out(merged)) + residual)


class DecoderBlock(nn.Module):
    def __init__(self):
        super(DecoderBlock, self).__init__()
        self.self_attention = AttentionSublayer()
        self.cross_attention = AttentionSublayer()

    def forward(self, tgt, memory, src_mask, tgt_mask):
        # tgt_mask: (batch, tgt, tgt) with True on and below the diagonal; src_mask: (batch, 1, src)
        out = self.self_attention(tgt, tgt, tgt, tgt_mask)
        return self.cross_attention(out, memory, memory, src_mask)
