# case: t18k-05-fill
# modelled-on: FurkanAtass/Attention-PyTorch https://github.com/FurkanAtass/Attention-PyTorch/commit/3c4f8836b4890fed5dac39a17d43e68ae3ab20a8
# label: correct
# class: fixed
# pattern: the translation transformer after its fill fix: keep masks (1 = attend) everywhere, the decoder's as a query-side padding mask ANDed with a tril of ones, filled with -1e9 where the mask is 0
# why: correct: -1e9 is finite in float32 (the model trains in float32, no autocast), so the fully hidden rows of padded queries get a uniform distribution instead of NaN, their values stay finite, and the real queries never see them (future keys); the tril keep mask has the right polarity for masked_fill(mask == 0, ...)
# looks-like: ATT002, ATT007
# source: https://github.com/FurkanAtass/Attention-PyTorch https://github.com/FurkanAtass/Attention-PyTorch/commit/3c4f8836b4890fed5dac39a17d43e68ae3ab20a8 model/layers/self_attention.py
import torch
from torch import nn


class ScaledAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.softmax = nn.Softmax(-1)

    def forward(self, q, k, v, mask=None):
        d = q.size(-1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / (d ** 0.5)
        if mask is not None:
            # positions where the mask is 0 get no attention
            scores = scores.masked_fill(mask == 0, -1e9)
        weights = self.softmax(scores)
        return torch.matmul(weights, v)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.h = num_heads
        self.d = d_model // num_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.wo = nn.Linear(d_model, d_model)
        self.attn = ScaledAttention()

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.h, self.d).transpose(1, 2)

    def forward(self, q, k, v, mask=None):
        b, t, _ = q.shape
        out = self.attn(self.split(self.wq(q)), self.split(self.wk(k)), self.split(self.wv(v)), mask)
        return self.wo(out.transpose(1, 2).reshape(b, t, self.h * self.d))
