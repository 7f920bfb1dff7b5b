# case: b54-08-clean
# modelled-on: 1911416-GuoYuhan/SchoenbAt https://github.com/1911416-GuoYuhan/SchoenbAt/commit/4b86a16dd4bd7ece6770a6c9261609422c8bea2f
# label: correct
# class: clean
# pattern: kernelised multi-head self-attention with random Maclaurin features (a folder: the attention module that multiplies queries and keys each by d ** -0.25, maps them through a non-negative random-feature projector, zeroes the key features of padded positions with masked_fill(keep == 0, 0) and runs a causal linear attention made of cumulative sums with a clamped denominator; and the multi-head wrapper that splits heads, standardises q and k per vector (zero mean, unit variance), runs the kernel attention in float32 outside autocast and merges heads)
# why: correct: there is no softmax, so no softmax axis and no -inf: the kernel's features are non-negative and a padded key with a zero feature vector contributes nothing to either prefix sum, which is exactly masking it; the d ** -0.25 on each side makes the kernel argument q.k / sqrt(d); causality comes from the cumulative sums over the length axis (dim=2 of [B, H, L, ...]); the keep mask is 1 for real tokens, so == 0 selects the padding
# looks-like: ATT001, ATT003, ATT004, ATT007
# source: https://github.com/1911416-GuoYuhan/SchoenbAt https://github.com/1911416-GuoYuhan/SchoenbAt/commit/4b86a16dd4bd7ece6770a6c9261609422c8bea2f SchoenbAt.py
import torch
import torch.nn as nn

from maclaurin_attention import MaclaurinFeatureAttention


class Standardise(nn.Module):
    def __init__(self, eps=1e-12):
        super().__init__()
        self.eps = eps

    def forward(self, x):
        x = x - x.mean(-1, keepdim=True)
        return x / torch.sqrt(x.var(-1, unbiased=False, keepdim=True) + self.eps)


class KernelSelfAttention(nn.Module):
    def __init__(self, dim, head_dim, n_heads, projector, dropout=0.0):
        super().__init__()
        self.h, self.d = n_heads, head_dim
        self.to_q = nn.Linear(dim, n_heads * head_dim)
        self.to_k = nn.Linear(dim, n_heads * head_dim)
        self.to_v = nn.Linear(dim, n_heads * head_dim)
        self.attn = MaclaurinFeatureAttention(head_dim, projector, dropout)
        self.pre = Standardise()
        self.out = nn.Linear(n_heads * head_dim, dim)

    def _split(self, x):
        b, n, _ = x.shape
        return x.reshape(b, n, self.h, self.d).transpose(1, 2)

    def forward(self, x, keep):
        q, k, v = self._split(self.to_q(x)), self._split(self.to_k(x)), self._split(self.to_v(x))
        q, k = self.pre(q), self.pre(k)
        with torch.autocast("cuda", enabled=False):
            y = self.attn(q.float(), k.float(), v.float(), keep.float() if keep is not None else None)
        y = y.transpose(1, 2).reshape(x.shape[0], x.shape[1], self.h * self.d)
        return self.out(y)
