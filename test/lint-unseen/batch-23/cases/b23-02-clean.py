# case: b23-02-clean
# modelled-on: TropComplique/set-transformer https://github.com/TropComplique/set-transformer/commit/8642adcd61ae21d692a10975391e430520913f3b
# label: correct
# class: clean
# pattern: a Set Transformer with the heads folded into the batch: a scaled dot-product module built with a temperature and an nn.Softmax(dim=2) in __init__ works on 3-D (heads * batch, n, p) tensors with torch.bmm(queries, keys.transpose(1, 2)); the multi-head module computes p = d // h and builds that module with temperature=p ** 0.5; the pooling block attends from learnt seed vectors
# why: correct: after permute(2, 0, 1, 3).view(h * b, n, p) the scores are (h * b, n, m), so dim=2 is the key axis; the temperature is the square root of the per-head width p, not of d; keys.transpose(1, 2) is the key transpose of a 3-D tensor; the scale is applied before the softmax
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/TropComplique/set-transformer https://github.com/TropComplique/set-transformer/commit/8642adcd61ae21d692a10975391e430520913f3b attention.py
import torch
import torch.nn as nn


class ScaledDotProduct(nn.Module):
    def __init__(self, temperature):
        super().__init__()
        self.temperature = temperature
        self.softmax = nn.Softmax(dim=2)

    def forward(self, queries, keys, values):
        """queries [b, n, d], keys [b, m, d], values [b, m, d'] -> [b, n, d']; invariant to permuting the m keys."""
        scores = torch.bmm(queries, keys.transpose(1, 2))
        weights = self.softmax(scores / self.temperature)  # [b, n, m]
        return torch.bmm(weights, values)


class MultiheadAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        assert d % h == 0
        self.h = h
        p = d // h  # every head works in p dimensions
        self.wq = nn.Linear(d, d)
        self.wk = nn.Linear(d, d)
        self.wv = nn.Linear(d, d)
        self.out = nn.Linear(d, d)
        self.attention = ScaledDotProduct(temperature=p**0.5)

    def forward(self, queries, keys, values):
        h = self.h
        b, n, d = queries.size()
        _, m, _ = keys.size()
        p = d // h

        q = self.wq(queries).view(b, n, h, p)
        k = self.wk(keys).view(b, m, h, p)
        v = self.wv(values).view(b, m, h, p)

        q = q.permute(2, 0, 1, 3).contiguous().view(h * b, n, p)
        k = k.permute(2, 0, 1, 3).contiguous().view(h * b, m, p)
        v = v.permute(2, 0, 1, 3).contiguous().view(h * b, m, p)

        o = self.attention(q, k, v)  # [h * b, n, p]
        o = o.view(h, b, n, p).permute(1, 2, 0, 3).contiguous().view(b, n, d)
        return self.out(o)


class MultiheadAttentionBlock(nn.Module):
    def __init__(self, d, h, rff):
        super().__init__()
        self.multihead = MultiheadAttention(d, h)
        self.norm1 = nn.LayerNorm(d)
        self.norm2 = nn.LayerNorm(d)
        self.rff = rff

    def forward(self, x, y):
        h = self.norm1(x + self.multihead(x, y, y))
        return self.norm2(h + self.rff(h))


class PoolingMultiheadAttention(nn.Module):
    def __init__(self, d, k, h, rff):
        super().__init__()
        self.mab = MultiheadAttentionBlock(d, h, rff)
        self.seeds = nn.Parameter(torch.randn(1, k, d))

    def forward(self, z):
        s = self.seeds.repeat([z.size(0), 1, 1])  # [b, k, d]
        return self.mab(s, z)
