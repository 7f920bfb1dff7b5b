# case: b4-04-mask
# modelled-on: vshmyhlo/transformer-pytorch https://github.com/vshmyhlo/transformer-pytorch/commit/16ce86a6fc6a0859c0c69dc1d5e68723e36e155b
# label: correct
# class: fixed
# pattern: the same early transformer after the two fixes: the helper in masks.py builds np.tril(ones, k=0) (1 on and below the diagonal), and the bilinear score function fills the scores with -inf where the mask is 0 before the softmax over the keys
# why: correct: the 1s are the positions each query may see, `mask == 0` selects the future for the -inf fill, and the mask acts before the softmax (the bilinear Luong score has no 1/sqrt(d) scale in the real code either; not a scaled dot product)
# looks-like: ATT002, ATT003, ATT006, ATT007
# source: https://github.com/vshmyhlo/transformer-pytorch https://github.com/vshmyhlo/transformer-pytorch/commit/16ce86a6fc6a0859c0c69dc1d5e68723e36e155b attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from masks import future_mask


class Bilinear(nn.Module):
    def __init__(self, size):
        super().__init__()
        self.w = nn.Linear(size, size, bias=False)

    def forward(self, q, k, mask):
        # q: (b, t, size), k: (b, s, size) -> (b, t, s)
        wk = self.w(k).transpose(2, 1)
        scores = torch.bmm(q, wk)
        if mask is not None:
            scores.masked_fill_(mask == 0, float("-inf"))
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
        weights = self.score(q, k, mask)  # (b, t, s)
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
