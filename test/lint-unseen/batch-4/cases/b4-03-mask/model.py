# case: b4-03-mask
# modelled-on: vshmyhlo/transformer-pytorch https://github.com/vshmyhlo/transformer-pytorch/commit/d3a4146a7087e22601b24b3ae246642c3e3e66f1
# label: buggy
# class: real-bug
# pattern: an early from-scratch transformer: the decoder's self-attention mask comes from a helper in masks.py (np.triu(ones, k=1), 1 above the diagonal); each head computes bilinear scores with bmm, takes the softmax over the keys, and then multiplies the weights by the mask as a float before summing the values
# why: the helper's 1s are the future positions, but the product keeps the positions where the mask is 1, so each query attends only to the tokens after it (commit d3a4146 builds it with tril, k=0); and the mask is applied to the weights after the softmax without renormalising, so the kept weights no longer sum to 1 (commit 16ce86a moves it before the softmax as masked_fill(mask == 0, -inf))
# source: https://github.com/vshmyhlo/transformer-pytorch https://github.com/vshmyhlo/transformer-pytorch/commit/d3a4146a7087e22601b24b3ae246642c3e3e66f1 transformer.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from masks import future_mask


class Bilinear(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.w = nn.Linear(size, size, bias=False)

    def forward(self, q, k):
        # q: (b, t, size), k: (b, s, size) -> (b, t, s)
        wk = self.w(k).transpose(2, 1)
        scores = torch.bmm(q, wk)
        return F.softmax(scores, -1)


class Head(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.ql = nn.Linear(size, size, bias=False)
        self.kl = nn.Linear(size, size, bias=False)
        self.vl = nn.Linear(size, size, bias=False)
        self.score = Bilinear(size)

    def forward(self, x, states, mask):
        q = self.ql(x)
        k = self.kl(states)
        v = self.vl(states)
        weights = self.score(q, k)  # (b, t, s)
        if mask is not None:
            weights = weights * mask.float()  # expect: ATT002, ATT006
        # (b, t, s, 1) * (b, 1, s, size) -> sum over s
        return (v.unsqueeze(-3) * weights.unsqueeze(-1)).sum(-2)


class MultiHead(nn.Module):
    def __init__(self, size, n_heads):
        super().__init__()
        self.heads = nn.ModuleList([Head(size) for _ in range(n_heads)])
        self.proj = nn.Linear(size * n_heads, size, bias=False)

    def forward(self, x, states, mask):
        return self.proj(torch.cat([h(x, states, mask) for h in self.heads], -1))


class DecoderLayer(nn.Module):
    def __init__(self, size, n_heads):
        super().__init__()
        self.self_attention = MultiHead(size, n_heads)
        self.norm = nn.LayerNorm(size)

    def forward(self, x, tokens):
        mask = future_mask(tokens)
        return self.norm(x + self.self_attention(x, x, mask))
