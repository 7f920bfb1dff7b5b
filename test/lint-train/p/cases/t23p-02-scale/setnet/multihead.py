# case: t23p-02-scale
# modelled-on: Enigmatisms/Set-Transformer https://github.com/Enigmatisms/Set-Transformer/commit/9a4022a779871cc0b3576102afb017dac48a38e7
# label: correct
# class: fixed
# pattern: the same hand-built Set Transformer multi-head attention after the author's fix: per-head ParameterList projections applied after repeat(batch, 1, 1), one single-head routine per head, scores Q @ K.transpose(1, 2) divided by sqrt(dk) with dk = Q.shape[2], the per-head width; the blocks that call it live in another module
# why: correct: Q is (batch, n_token, d_model // heads), so Q.shape[2] is the width each head's dot products run over and 1/sqrt(dk) is the paper's scale; the softmax is over the keys (last axis); K.transpose(1, 2) is the right key transpose for 3-D tensors. (The keys are still projected with the query matrices, as in the original; no attention rule covers that)
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/Enigmatisms/Set-Transformer https://github.com/Enigmatisms/Set-Transformer/commit/9a4022a779871cc0b3576102afb017dac48a38e7 py/multihead.py
from math import sqrt

import torch
import torch.nn.functional as F
from torch import nn
from torch.nn.parameter import Parameter


class MultiHead(nn.Module):
    """Q, K, V: (batch, n_token, d_model) -> (batch, n_token, dv_model)."""

    def __init__(self, n_heads=8, dk_model=512, dv_model=512):
        super().__init__()
        self.n_heads = n_heads
        self.dk = dk_model // n_heads
        self.dv = dv_model // n_heads
        k_shape = (dk_model, self.dk)
        v_shape = (dv_model, self.dv)
        self.w_q = nn.ParameterList([Parameter(torch.normal(0, 1, k_shape)) for _ in range(n_heads)])
        self.w_k = nn.ParameterList([Parameter(torch.normal(0, 1, k_shape)) for _ in range(n_heads)])
        self.w_v = nn.ParameterList([Parameter(torch.normal(0, 1, v_shape)) for _ in range(n_heads)])
        self.w_o = Parameter(torch.normal(0, 1, (dv_model, dv_model)))

    def one_head(self, q: torch.Tensor, k: torch.Tensor, v: torch.Tensor) -> torch.Tensor:
        # q, k: (batch, n_token, dk); v: (batch, n_token, dv)
        logits = q @ k.transpose(1, 2)
        dk = q.shape[2]
        weights = F.softmax(logits / sqrt(dk), dim=-1)
        return weights @ v

    def forward(self, q, k, v):
        b = q.shape[0]
        qs = [q @ self.w_q[i].repeat(b, 1, 1) for i in range(self.n_heads)]
        ks = [k @ self.w_q[i].repeat(b, 1, 1) for i in range(self.n_heads)]
        vs = [v @ self.w_v[i].repeat(b, 1, 1) for i in range(self.n_heads)]
        heads = [self.one_head(qs[i], ks[i], vs[i]) for i in range(self.n_heads)]
        h = torch.cat(heads, dim=-1)  # (batch, n_token, dv_model)
        return h @ self.w_o.repeat(b, 1, 1)
