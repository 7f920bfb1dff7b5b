# case: b18-05-clean
# modelled-on: cybershiptrooper/gpt2-from-scratch https://github.com/cybershiptrooper/gpt2-from-scratch/commit/2f479417f414eebd8991bece0b5af317e4ef90d1
# label: correct
# class: clean
# pattern: an interpretability-minded GPT-2 re-implementation with raw nn.Parameter projections and per-head modules: each head computes QK = Q @ K^T, builds an additive causal plane from torch.tril(ones) by writing -inf where it is 0 and 0 where it is 1, zeroes the upper triangle of the scores with torch.tril(QK) and adds the plane, then takes the softmax of QK / d_k ** .5; the multi-head module concatenates the heads and applies W_O
# why: correct: the plane is 0 on and below the diagonal and -inf above it, so adding it after tril(QK) leaves the visible scores unchanged and makes the future -inf (tril's zeros become -inf, not 0); dividing -inf by sqrt(d_k) keeps it -inf, so the scale inside the softmax argument is the usual 1/sqrt(d_head) on the visible scores; the diagonal is always visible, so no row is all -inf
# looks-like: ATT002, ATT003, ATT006, ATT007
# source: https://github.com/cybershiptrooper/gpt2-from-scratch https://github.com/cybershiptrooper/gpt2-from-scratch/commit/2f479417f414eebd8991bece0b5af317e4ef90d1 model/attention.py
import torch
import torch.nn as nn


class SingleHeadAttention(nn.Module):
    def __init__(self, d_model, d_head, init_range=0.02, keep_pattern=False):
        super().__init__()
        self.Wq = nn.Parameter(torch.empty(d_model, d_head))
        self.Wk = nn.Parameter(torch.empty(d_model, d_head))
        self.Wv = nn.Parameter(torch.empty(d_model, d_head))
        for w in (self.Wq, self.Wk, self.Wv):
            nn.init.normal_(w, mean=0, std=init_range)
        self.d_k = d_head
        self.keep_pattern = keep_pattern
        self.pattern = None

    def forward(self, resid):
        Q = resid @ self.Wq
        K = resid @ self.Wk
        V = resid @ self.Wv
        return self.attend(Q, K, V)

    def attend(self, Q, K, V):
        QK = Q @ K.transpose(-2, -1)  # [b, n, n]
        plane = torch.tril(torch.ones(QK.shape)).to(QK.device)
        plane[plane == 0] = -float("inf")
        plane[plane == 1] = 0
        QK = torch.tril(QK) + plane
        pattern = nn.Softmax(dim=-1)(QK / (self.d_k ** 0.5))
        if self.keep_pattern:
            self.pattern = pattern
        return pattern @ V


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, n_heads, init_range=0.02, keep_pattern=False):
        super().__init__()
        assert d_model % n_heads == 0
        self.heads = nn.ModuleList(
            [SingleHeadAttention(d_model, d_model // n_heads, init_range, keep_pattern) for _ in range(n_heads)]
        )
        self.Wo = nn.Parameter(torch.empty(d_model, d_model))
        nn.init.normal_(self.Wo, mean=0, std=init_range)

    def forward(self, resid):
        out = torch.cat([h(resid) for h in self.heads], dim=-1)
        return resid + out @ self.Wo
