# case: t18k-01-scale
# modelled-on: shockless/asr-transformer https://github.com/shockless/asr-transformer/commit/3dad744ec65919d7df7ed1b96a15f5bcdb234533
# label: buggy
# class: real-bug
# pattern: a speech transformer whose multi-head attention is a ModuleList of single heads, each projecting emb_dim -> emb_dim // num_heads; every head scales its bmm scores by `self._emb_dim ** (-0.5)`, the model width passed to the head's constructor; the mask (True = hide, built in masking.py and model.py from a 1 = real-token mask with `.lt(1)`, OR-ed with a uint8 triu) is applied with masked_fill(mask.gt(0), -inf), and fully masked padded query rows are zeroed by nan_to_num after the softmax
# why: buggy: the scores are dot products of head_dim = emb_dim // num_heads features, so scaled dot-product attention (the Transformer and Speech-Transformer papers the model follows) divides by sqrt(head_dim); dividing by sqrt(emb_dim) makes every head's logits sqrt(num_heads) times too small (a softer softmax than intended); never fixed in the repository. The masks are correct: True = hide everywhere, and nan_to_num turns the all -inf rows of padded queries into zero weights
# source: https://github.com/shockless/asr-transformer https://github.com/shockless/asr-transformer/commit/3dad744ec65919d7df7ed1b96a15f5bcdb234533 modules/Transformer/layers.py
import torch
from torch import nn


class AttentionHead(nn.Module):
    def __init__(self, emb_dim, head_dim, dropout):
        super().__init__()
        self._emb_dim = emb_dim
        self._q = nn.Linear(emb_dim, head_dim)
        self._k = nn.Linear(emb_dim, head_dim)
        self._v = nn.Linear(emb_dim, head_dim)
        self._dropout = nn.Dropout(dropout)

    def forward(self, x, memory=None, attention_mask=None):
        src = x if memory is None else memory
        q = self._q(x)
        k = self._k(src)
        v = self._v(src)

        scores = q.bmm(k.transpose(1, 2)) * (self._emb_dim ** (-0.5))  # expect: ATT004

        if attention_mask is not None:
            scores = scores.masked_fill(attention_mask.gt(0), float("-inf"))

        weights = torch.nan_to_num(torch.softmax(scores, dim=-1))
        return self._dropout(weights).bmm(v)


class MultiHead(nn.Module):
    def __init__(self, num_heads, emb_dim, dropout):
        super().__init__()
        self._heads = nn.ModuleList(
            [AttentionHead(emb_dim, emb_dim // num_heads, dropout) for _ in range(num_heads)]
        )
        self._out = nn.Linear(emb_dim, emb_dim)
        self._dropout = nn.Dropout(dropout)

    def forward(self, x, memory=None, attention_mask=None):
        out = torch.cat([h(x, memory, attention_mask) for h in self._heads], dim=-1)
        return self._dropout(self._out(out))
