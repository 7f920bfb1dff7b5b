# case: b49-03-clean
# modelled-on: selinalzl/decoder-only-transformer-nmt https://github.com/selinalzl/decoder-only-transformer-nmt/commit/0057c924f2e0afc93a80c833be7f0659356561be
# label: correct
# class: clean
# pattern: a decoder-only Transformer for machine translation (a folder: the attention layers, where scaled dot-product attention fills -1e9 where the mask == 0 and the multi-head wrapper repeats a [batch, len, len] mask per head; the model, which builds a keep-mask from tokens != pad and a look-ahead mask as (numpy triu k=1) == 0 and combines them with &; the greedy decoder that re-runs the growing prefix)
# why: correct: both masks are True where attention is allowed (not padding; on or below the diagonal), their & keeps exactly the allowed pairs, and the attention fills -1e9 where that mask is 0, i.e. on padded keys and future positions; -1e9 masks in float32, which is what the model trains in; the scores are [batch, heads, len_q, len_k] with keys last, scaled by sqrt(d_model // n_heads) and normalised over dim=-1; the greedy decoder re-encodes the whole prefix, so the look-ahead mask always matches the sequence length
# looks-like: ATT002, ATT007
# source: https://github.com/selinalzl/decoder-only-transformer-nmt https://github.com/selinalzl/decoder-only-transformer-nmt/commit/0057c924f2e0afc93a80c833be7f0659356561be decoder_model.py
import math

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from attention_layers import MaskedSelfAttention


class SinusoidalPositions(nn.Module):
    def __init__(self, d_model, max_len, dropout=0.1):
        super().__init__()
        pos = torch.arange(max_len).unsqueeze(1)
        div = torch.exp(torch.arange(0, d_model, 2) * (-math.log(10000.0) / d_model))
        table = torch.zeros(max_len, d_model)
        table[:, 0::2] = torch.sin(pos * div)
        table[:, 1::2] = torch.cos(pos * div)
        self.register_buffer("table", table.unsqueeze(0))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        return self.dropout(x + self.table[:, : x.size(1)])


class DecoderBlock(nn.Module):
    def __init__(self, d_model, n_heads, ff_dim, dropout):
        super().__init__()
        self.attn = MaskedSelfAttention(d_model, n_heads, dropout)
        self.norm_attn = nn.LayerNorm(d_model)
        self.ff_in = nn.Linear(d_model, ff_dim)
        self.ff_out = nn.Linear(ff_dim, d_model)
        self.norm_ff = nn.LayerNorm(d_model)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, mask):
        attended, weights = self.attn(x, mask)
        x = self.norm_attn(x + self.drop(attended))
        ff = self.ff_out(self.drop(F.relu(self.ff_in(x))))
        return self.norm_ff(x + self.drop(ff)), weights


class TranslationDecoder(nn.Module):
    """Source and target share one sequence; every layer is masked self-attention."""

    def __init__(self, pad_id, vocab_size, d_model, max_len, n_heads, n_layers, ff_dim, dropout):
        super().__init__()
        self.pad_id = pad_id
        self.d_model = d_model
        self.embed = nn.Embedding(vocab_size, d_model)
        self.positions = SinusoidalPositions(d_model, max_len, dropout)
        self.blocks = nn.ModuleList(DecoderBlock(d_model, n_heads, ff_dim, dropout) for _ in range(n_layers))
        self.out = nn.Linear(d_model, vocab_size)

    def forward(self, tokens):
        h = self.positions(self.embed(tokens) * math.sqrt(self.d_model))
        keep_tokens = self.not_padding(tokens)  # [batch, 1, len]
        keep_past = self.no_lookahead(tokens).to(keep_tokens.device)  # [1, len, len]
        mask = keep_tokens & keep_past  # [batch, len, len]
        for block in self.blocks:
            h, weights = block(h, mask)
        return self.out(h), weights

    def not_padding(self, tokens):
        return (tokens != self.pad_id).unsqueeze(1)

    @staticmethod
    def no_lookahead(tokens):
        n = tokens.size(-1)
        upper = np.triu(np.ones((1, n, n)), k=1).astype("uint8")
        return torch.from_numpy(upper) == 0
