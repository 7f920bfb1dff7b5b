# case: t44ee-18-transpose
# modelled-on: marquezo/qanet-impl https://github.com/marquezo/qanet-impl/commit/6f2ab7c51cb1f1e8b642115a615a44f5dc0312dd
# label: buggy
# class: real-bug
# pattern: a QANet encoder block (another file) keeps channels-first tensors (B, filters, L) for its convolutions and permutes them to (B, L, filters) before the self-attention; each head projects with its own `nn.Linear` into Q, K, V of shape (B, L, d_k), computes `bmm(Q.permute(0, 2, 1), K)`, divides by sqrt(d_k), softmaxes over dim=1 and multiplies `bmm(V, weights)`
# why: buggy: the transpose is on the queries, so the product contracts the sequence axis and gives a (d_k, d_k) matrix between feature channels instead of the (L, L) scores between positions (the comment calls it scaled dot-product attention, Vaswani et al. 2017); `bmm(V, ...)` then mixes each position's own channels, so no token ever attends to another; the scores should be `bmm(Q, K.permute(0, 2, 1))` (softmax over the keys, then weights @ V)
# source: https://github.com/marquezo/qanet-impl https://github.com/marquezo/qanet-impl/commit/6f2ab7c51cb1f1e8b642115a615a44f5dc0312dd qanet/self_attention.py
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class HeadsSelfAttention(nn.Module):
    """Multi-head attention mechanism as defined in Vaswani et al. 2017."""

    def __init__(self, batch_size=8, n_heads=8, n_filters=128):
        super().__init__()
        self.batch_size = batch_size
        self.n_heads = n_heads
        self.d_k = n_filters // n_heads
        self.d_v = n_filters // n_heads
        self.to_q = nn.ModuleList([nn.Linear(n_filters, self.d_k) for _ in range(n_heads)])
        self.to_k = nn.ModuleList([nn.Linear(n_filters, self.d_k) for _ in range(n_heads)])
        self.to_v = nn.ModuleList([nn.Linear(n_filters, self.d_v) for _ in range(n_heads)])
        self.out = nn.Linear(n_heads * self.d_v, n_filters)

    def forward(self, x):
        # x: (B, L, n_filters)
        n = x.shape[1]
        heads = torch.zeros(self.n_heads, self.batch_size, n, self.d_v, device=x.device)
        for i in range(self.n_heads):
            Q = self.to_q[i](x)
            K = self.to_k[i](x)
            V = self.to_v[i](x)
            # scaled dot-product attention
            w = torch.bmm(Q.permute(0, 2, 1), K)  # expect: ATT005
            w = w / np.sqrt(self.d_k)
            w = F.softmax(w, dim=1)
            heads[i] = torch.bmm(V, w)
        return self.out(heads.view(self.batch_size, n, -1))


if __name__ == "__main__":
    mdl = HeadsSelfAttention()
    print(mdl(torch.ones(8, 60, 128)).shape)
