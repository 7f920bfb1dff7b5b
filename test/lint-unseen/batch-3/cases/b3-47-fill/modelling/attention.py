# case: b3-47-fill
# modelled-on: nilsreck/attention-is-all-you-need-pytorch https://github.com/nilsreck/attention-is-all-you-need-pytorch/commit/03be63b2f55ce116977090f47ecfd10add657334
# label: correct
# class: fixed
# pattern: a from-scratch translation transformer whose training loop (run/train_model.py) runs the forward pass under torch.cuda.amp.autocast with a GradScaler; the attention folds the heads into the batch, builds the look-ahead mask on the fly with triu(diagonal=1) and expands a 1 = keep padding mask over the query rows, filling both with a large negative constant before a softmax over the keys
# why: after commit 03be63b both masks are filled with -1e4, which float16 represents, so the autocast forward pass runs, and exp(-1e4) is 0, so the hidden keys get no weight; the look-ahead mask hides only the strict upper triangle, so no query row is fully masked
# looks-like: ATT002, ATT007
# source: https://github.com/nilsreck/attention-is-all-you-need-pytorch https://github.com/nilsreck/attention-is-all-you-need-pytorch/commit/03be63b2f55ce116977090f47ecfd10add657334 transformer_project/modelling/attention.py
import math

import torch
from torch import nn


class ScaledAttention(nn.Module):
    def __init__(self, causal: bool = False):
        super().__init__()
        self.causal = causal

    def forward(self, q, k, v, keep=None):
        # q: (batch * heads, len_q, d_k), k / v: (batch * heads, len_k, d_k); keep: (batch * heads, len_k), 1 = real token
        d_k = q.size(-1)
        scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)
        n, len_q, len_k = scores.size(0), q.size(-2), k.size(-2)

        if self.causal:
            future = torch.triu(torch.ones(len_q, len_k), diagonal=1).to(q.device)
            scores = scores.masked_fill(future == 1, -1e4)  # -1e4: representable in float16 (mixed precision)

        if keep is not None:
            keep_rows = keep.unsqueeze(1).expand(n, len_q, len_k).to(q.device)
            scores = scores.masked_fill(keep_rows == 0, -1e4)  # -1e4: representable in float16 (mixed precision)

        weights = torch.softmax(scores, dim=-1)
        return weights @ v


class HeadedAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, causal: bool = False):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.w_q = nn.Linear(d_model, d_model, bias=False)
        self.w_k = nn.Linear(d_model, d_model, bias=False)
        self.w_v = nn.Linear(d_model, d_model, bias=False)
        self.w_o = nn.Linear(d_model, d_model, bias=False)
        self.inner = ScaledAttention(causal=causal)

    def _fold(self, x):
        b, length, _ = x.shape
        x = torch.einsum("blhd->bhld", x.view(b, length, self.n_heads, self.d_k))
        return x.reshape(b * self.n_heads, length, self.d_k)

    def forward(self, query, key, value, keep=None):
        b, len_q = query.size(0), query.size(-2)
        q, k, v = self._fold(self.w_q(query)), self._fold(self.w_k(key)), self._fold(self.w_v(value))
        if keep is not None:
            keep = keep.unsqueeze(1).expand(b, self.n_heads, key.size(-2)).reshape(b * self.n_heads, key.size(-2))
        out = self.inner(q, k, v, keep).view(b, self.n_heads, len_q, self.d_k)
        out = torch.einsum("bhld->blhd", out).reshape(b, len_q, self.n_heads * self.d_k)
        return self.w_o(out)
