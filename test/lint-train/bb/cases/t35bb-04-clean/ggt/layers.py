# case: t35bb-04-clean
# modelled-on: davide-belli/generative-graph-transformer https://github.com/davide-belli/generative-graph-transformer/commit/708fbf37b4057fb9e2fa1a08fddf8f96428dcfb9
# label: correct
# class: clean
# pattern: the Generative Graph Transformer (road-network graph generation): a decoder of pre-norm self-attention layers; `attention()` divides q @ k.transpose(-2, -1) by sqrt(d_k), adds a heads axis to the mask and fills `mask == 0` with -1e9; the mask is built in another module as `generate_mask_sequence(S) & generate_mask_pad(lengths, shape)`: `triu(ones, diagonal=1) == 0` (keep the past and the diagonal, shape (1, S, S)) and a padding mask over the QUERY axis, (B, S, 1), True for the first length[i] rows; the layer returns the weights of its last two heads averaged, `att_weights.detach()[:, -2:].sum(dim=1) / 2`, for plotting
# why: correct: both masks are keep masks (True = attend) and `masked_fill(mask == 0, -1e9)` removes where they are False; the padding mask hides whole rows of padded queries (their outputs are dropped by the loss, and -1e9 is finite, so such rows are uniform, not NaN), while the padded keys, which sit after every real node, are already hidden from every real query by the causal mask; the sum over dim 1 of the detached weights averages two heads for plotting and is not a normalisation; scale 1/sqrt(d_k) with d_k the per-head width
# looks-like: ATT001, ATT002, ATT006, ATT007
# source: https://github.com/davide-belli/generative-graph-transformer https://github.com/davide-belli/generative-graph-transformer/commit/708fbf37b4057fb9e2fa1a08fddf8f96428dcfb9 models/layers_GGT.py
import copy
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderLayer(nn.Module):
    def __init__(self, d_model, heads, dropout=0.1):
        super().__init__()
        self.norm_1 = nn.LayerNorm(d_model)
        self.norm_2 = nn.LayerNorm(d_model)
        self.dropout_1 = nn.Dropout(dropout)
        self.dropout_2 = nn.Dropout(dropout)
        self.attn_1 = MultiHeadAttention(heads, d_model, dropout=dropout)
        self.ff = FeedForward(d_model)

    def forward(self, x, mask=None):
        x2 = self.norm_1(x)
        t, avg_scores = self.attn_1(x2, x2, x2, mask)
        x = x + self.dropout_1(t)
        x2 = self.norm_2(x)
        x = x + self.dropout_2(self.ff(x2))
        return x, avg_scores


class MultiHeadAttention(nn.Module):
    def __init__(self, heads, d_model, dropout=0.0):
        super().__init__()
        self.d_model = d_model
        self.d_k = d_model // heads
        self.h = heads
        self.q_linear = nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)
        self.k_linear = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout) if dropout > 0 else None
        self.out = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask=None):
        bs = q.size(0)
        k = self.k_linear(k).view(bs, -1, self.h, self.d_k)
        q = self.q_linear(q).view(bs, -1, self.h, self.d_k)
        v = self.v_linear(v).view(bs, -1, self.h, self.d_k)

        # bs * h * sl * d_k
        k = k.transpose(1, 2)
        q = q.transpose(1, 2)
        v = v.transpose(1, 2)

        att_output, att_weights = attention(q, k, v, self.d_k, mask, self.dropout)

        # weights of the last two heads, averaged, kept for plotting
        att_weights = att_weights.detach()[:, -2:].sum(dim=1) / 2

        concat = att_output.transpose(1, 2).contiguous().view(bs, -1, self.d_model)
        return self.out(concat), att_weights


class FeedForward(nn.Module):
    def __init__(self, d_model, d_ff=2048, dropout=0.0):
        super().__init__()
        self.linear_1 = nn.Linear(d_model, d_ff)
        self.dropout = nn.Dropout(dropout)
        self.linear_2 = nn.Linear(d_ff, d_model)

    def forward(self, x):
        return self.linear_2(self.dropout(F.relu(self.linear_1(x))))


class PositionalEncoder(nn.Module):
    def __init__(self, d_model, max_seq_len):
        super().__init__()
        self.d_model = d_model
        pe = torch.zeros(max_seq_len, d_model)
        for pos in range(max_seq_len):
            for i in range(0, d_model, 2):
                pe[pos, i] = math.sin(pos / (10000 ** ((2 * i) / d_model)))
                pe[pos, i + 1] = math.cos(pos / (10000 ** ((2 * (i + 1)) / d_model)))
        self.register_buffer("pe", pe.unsqueeze(0))

    def forward(self, x):
        x = x * math.sqrt(self.d_model)
        return x + self.pe[:, : x.size(1)]


def attention(q, k, v, d_k, mask=None, dropout=None):
    """q, k, v: B x N_HEADS x seq_len x d_k; mask: keep mask, B x seq_len x seq_len (broadcast)."""
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)

    if mask is not None:
        mask = mask.unsqueeze(1)  # heads axis
        scores = scores.masked_fill(mask == 0, -1e9)

    scores = F.softmax(scores, dim=-1)

    if dropout is not None:
        scores = dropout(scores)

    output = torch.matmul(scores, v)
    return output, scores


def get_clones(module, N):
    return nn.ModuleList([copy.deepcopy(module) for _ in range(N)])
