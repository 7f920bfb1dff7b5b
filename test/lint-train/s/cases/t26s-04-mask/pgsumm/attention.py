# case: t26s-04-mask
# modelled-on: mmlynarik/pointer-generator https://github.com/mmlynarik/pointer-generator/commit/de2f0f102c1a4e152f7c645435390e0a0e334a4b
# label: buggy
# class: real-bug
# pattern: a pointer-generator summariser (BiLSTM encoder, LSTM decoder, Bahdanau attention): the features module passes the Hugging Face tokenizer's attention_mask (1 on tokens, 0 on padding) on as encoder_padding_mask; two additive-attention modules unsqueeze it to (B, L, 1) next to scores v(tanh(W_h h + W_s s [+ w_c c])) of shape (B, L, 1) and take softmax(dim=1) over the source positions; the coverage variant masks with attn_scores.masked_fill(encoder_padding_mask, -inf), the plain one with masked_fill(1 - encoder_padding_mask, -inf)
# why: buggy: in the coverage variant the 1-on-tokens mask is handed to masked_fill as if it marked padding, so every real source token gets -inf and only padding keeps a finite score (a row with no padding is all -inf, NaN after the softmax); the plain variant has the right polarity (1 - mask is 1 on padding); the author flipped the coverage line to 1 - mask in the next commit and made both == 0 two commits later (with a long mask only the bool comparison is accepted by masked_fill, so that later change also fixes the dtype)
# source: https://github.com/mmlynarik/pointer-generator https://github.com/mmlynarik/pointer-generator/commit/de2f0f102c1a4e152f7c645435390e0a0e334a4b src/summarizationmodel/model.py
from typing import Optional

import torch as pt
import torch.nn as nn


class BahdanauAttnWithCoverage(nn.Module):
    def __init__(self, hidden_dim: int):
        super().__init__()
        self.Wh = nn.Linear(2 * hidden_dim, hidden_dim, bias=False)
        self.Ws = nn.Linear(2 * hidden_dim, hidden_dim, bias=True)
        self.v = nn.Linear(hidden_dim, 1, bias=False)
        self.wc = nn.Linear(1, hidden_dim, bias=False)

    def forward(self, encoder_outputs, encoder_padding_mask, decoder_state, coverage: Optional[pt.Tensor] = None):
        coverage = pt.zeros_like(encoder_padding_mask, dtype=encoder_outputs.dtype) if coverage is None else coverage
        s = decoder_state.unsqueeze(dim=1)
        encoder_padding_mask = encoder_padding_mask.unsqueeze(dim=2)
        cov = coverage.unsqueeze(dim=2)
        scores = self.v(pt.tanh(self.Wh(encoder_outputs) + self.Ws(s) + self.wc(cov)))  # B-L-1
        masked_scores = scores.masked_fill(encoder_padding_mask, -float("inf"))  # expect: ATT002
        attn_dist = nn.functional.softmax(masked_scores, dim=1)  # B-L-1
        context = (attn_dist * encoder_outputs).sum(dim=1)  # B-2H
        coverage = coverage + attn_dist.squeeze(2)
        return context, attn_dist.squeeze(2), coverage


class BahdanauAttn(nn.Module):
    def __init__(self, hidden_dim: int):
        super().__init__()
        self.Wh = nn.Linear(2 * hidden_dim, hidden_dim, bias=False)
        self.Ws = nn.Linear(2 * hidden_dim, hidden_dim, bias=True)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, encoder_outputs, encoder_padding_mask, decoder_state, _=None):
        s = decoder_state.unsqueeze(dim=1)
        encoder_padding_mask = encoder_padding_mask.unsqueeze(dim=2)
        scores = self.v(pt.tanh(self.Wh(encoder_outputs) + self.Ws(s)))  # B-L-1
        masked_scores = scores.masked_fill(1 - encoder_padding_mask, -float("inf"))
        attn_dist = nn.functional.softmax(masked_scores, dim=1)  # B-L-1
        context = (attn_dist * encoder_outputs).sum(dim=1)  # B-2H
        return context, attn_dist.squeeze(2), None
