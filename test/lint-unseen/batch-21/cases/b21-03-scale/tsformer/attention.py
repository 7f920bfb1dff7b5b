# case: b21-03-scale
# modelled-on: MattCaner/Time-Series-Transformer https://github.com/MattCaner/Time-Series-Transformer/commit/e84370e5ea8776d5de349c7123a520d3c4b72544
# label: buggy
# class: real-bug
# pattern: a time-series transformer built from per-head modules: each AttentionHead projects the model width to its own query/key width d_qk (and value width d_v), both read from a settings object backed by a config file (another module; d_model 32, d_qk 12, 4 heads), computes torch.bmm(Q, K^T) and divides by math.sqrt(self.d_model) before a softmax over the last axis, in a masked branch (an additive -inf triu mask stacked per batch item, added before the division) and an unmasked one; the multi-head module concatenates the heads and projects back
# why: buggy: the dot products are over the d_qk features of one head's queries and keys, so the paper's 1/sqrt(d_k) is 1/sqrt(d_qk); dividing by sqrt(d_model) (sqrt(32) against sqrt(12) with the project's own settings) flattens every head's softmax; the module holds d_qk and does not use it for the scale. No fix exists; both branches carry the same wrong divisor
# source: https://github.com/MattCaner/Time-Series-Transformer https://github.com/MattCaner/Time-Series-Transformer/commit/e84370e5ea8776d5de349c7123a520d3c4b72544 series_transformer.py
import math

import torch
from torch import Tensor, nn

from tsformer.settings import Settings


class AttentionHead(nn.Module):
    def __init__(self, settings: Settings, causal: bool = False, d_qk: int = None, d_v: int = None):
        super().__init__()
        self.causal = causal
        self.d_model = settings.get("d_model")
        self.d_qk = settings.get("d_qk") if d_qk is None else d_qk
        self.d_v = settings.get("d_v") if d_v is None else d_v
        self.WQ = nn.Linear(self.d_model, self.d_qk)
        self.WK = nn.Linear(self.d_model, self.d_qk)
        self.WV = nn.Linear(self.d_model, self.d_v)

    def forward(self, x_q: Tensor, x_k: Tensor, x_v: Tensor) -> Tensor:
        Q = self.WQ(x_q)
        K = self.WK(x_k)
        V = self.WV(x_v)
        if self.causal:
            if Q.size(1) != K.size(1):
                raise TypeError("a causal head needs as many queries as keys")
            n = Q.size(1)
            mask = torch.stack([torch.triu(torch.full((n, n), -1 * torch.inf), diagonal=1) for _ in range(Q.size(0))])
            mask = mask.to(device=Q.device)
            return torch.bmm(torch.softmax(torch.add(torch.bmm(Q, torch.transpose(K, 1, 2)), mask) / math.sqrt(self.d_model), dim=-1), V)  # expect: ATT004
        return torch.bmm(torch.softmax(torch.bmm(Q, torch.transpose(K, 1, 2)) / math.sqrt(self.d_model), dim=-1), V)  # expect: ATT004


class MultiHeadedAttention(nn.Module):
    def __init__(self, settings: Settings, causal: bool = False):
        super().__init__()
        self.d_model = settings.get("d_model")
        self.d_v = settings.get("d_v")
        self.n_heads = settings.get("n_heads")
        self.heads = nn.ModuleList([AttentionHead(settings, causal=causal) for _ in range(self.n_heads)])
        self.out = nn.Linear(self.d_v * self.n_heads, self.d_model)

    def forward(self, x_q, x_k, x_v):
        joined = torch.cat([h(x_q, x_k, x_v) for h in self.heads], dim=-1)
        return self.out(joined)


class EncoderLayer(nn.Module):
    def __init__(self, settings: Settings):
        super().__init__()
        d_model = settings.get("d_model")
        self.mha = MultiHeadedAttention(settings)
        self.ff = nn.Sequential(nn.Linear(d_model, settings.get("d_ff")), nn.ReLU(), nn.Linear(settings.get("d_ff"), d_model))
        self.norm = nn.LayerNorm(d_model)

    def forward(self, x: Tensor) -> Tensor:
        mid = self.norm(torch.add(self.mha(x, x, x), x))
        return self.norm(torch.add(mid, self.ff(mid)))
