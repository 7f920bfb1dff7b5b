# case: t23p-01-scale
# modelled-on: Enigmatisms/Set-Transformer https://github.com/Enigmatisms/Set-Transformer/commit/491dab4d47e2797b9da7ebf3feaf9705d40afe63
# label: buggy
# class: real-bug
# pattern: a Set Transformer's hand-built multi-head attention: per-head projection matrices kept in ParameterLists and applied with a batched matmul after repeat(batch, 1, 1), one single-head routine per head, Q/K/V shaped (batch, tokens, width // heads), scores Q @ K.transpose(1, 2) divided by sqrt(dk) where dk is read from Q's shape inside the routine, heads concatenated and mixed by an output matrix; the blocks (MAB/SAB) that call it live in another module
# why: buggy: dk = Q.shape[1] is the token count of the set, not the per-head feature width Q.shape[2], so the logits are divided by sqrt(number of elements): the temperature changes with the set size and is wrong for every size but one; the author's next commit reads Q.shape[2]. The keys are also projected with the query matrices (a copy-paste slip no attention rule covers; kept as in the original)
# source: https://github.com/Enigmatisms/Set-Transformer https://github.com/Enigmatisms/Set-Transformer/commit/491dab4d47e2797b9da7ebf3feaf9705d40afe63 py/multihead.py
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
        dk = q.shape[1]
        weights = F.softmax(logits / sqrt(dk), dim=-1)  # expect: ATT004
        return weights @ v

    def forward(self, q, k, v):
        b = q.shape[0]
        qs = [q @ self.w_q[i].repeat(b, 1, 1) for i in range(self.n_heads)]
        ks = [k @ self.w_q[i].repeat(b, 1, 1) for i in range(self.n_heads)]
        vs = [v @ self.w_v[i].repeat(b, 1, 1) for i in range(self.n_heads)]
        heads = [self.one_head(qs[i], ks[i], vs[i]) for i in range(self.n_heads)]
        h = torch.cat(heads, dim=-1)  # (batch, n_token, dv_model)
        return h @ self.w_o.repeat(b, 1, 1)
