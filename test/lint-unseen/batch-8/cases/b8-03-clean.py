# case: b8-03-clean
# modelled-on: liuhanzuo/MiniLLM https://github.com/liuhanzuo/MiniLLM/commit/07f0830ae30c9f21b999e339922db5cda2976f78
# label: correct
# class: clean
# pattern: a lecture's encoder-decoder transformer: padding masks arrive as keep masks (1 = token, 0 = pad) and are turned additive with (1.0 - m) * torch.finfo(dtype).min; the decoder adds them to a float causal mask filled with -inf above the diagonal; an attention helper adds whatever additive mask it is given before the softmax
# why: correct: (1 - keep) is 1 at padding, so padding keys get the dtype's most negative value and tokens get 0; the causal part is -inf strictly above the diagonal, so every query keeps at least key 0 (the BOS is never padding) and no row is fully masked; the helper's docstring states the additive convention (0 keep, large negative mask)
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/liuhanzuo/MiniLLM https://github.com/liuhanzuo/MiniLLM/commit/07f0830ae30c9f21b999e339922db5cda2976f78 class/lec2/transformer.py
import math
from typing import Optional

import torch
import torch.nn as nn


def attend(q, k, v, bias: Optional[torch.Tensor] = None, p: float = 0.0, training: bool = True):
    """q, k, v: (B, H, L, D). bias: additive, broadcastable to (B, H, L, S): 0 keep, large negative masked."""
    scores = torch.matmul(q, k.transpose(-2, -1)) * (1.0 / math.sqrt(q.size(-1)))
    if bias is not None:
        scores = scores + bias
    weights = scores.softmax(dim=-1)
    if p > 0:
        weights = nn.functional.dropout(weights, p=p, training=training)
    return torch.matmul(weights, v), weights


class MHA(nn.Module):
    def __init__(self, d_model: int, heads: int, p: float = 0.0):
        super().__init__()
        self.h, self.dh, self.p = heads, d_model // heads, p
        self.q = nn.Linear(d_model, d_model, bias=False)
        self.k = nn.Linear(d_model, d_model, bias=False)
        self.v = nn.Linear(d_model, d_model, bias=False)
        self.o = nn.Linear(d_model, d_model, bias=False)

    def split(self, x):
        B, L, _ = x.shape
        return x.view(B, L, self.h, self.dh).transpose(1, 2)

    def forward(self, xq, xkv, bias=None):
        out, w = attend(self.split(self.q(xq)), self.split(self.k(xkv)), self.split(self.v(xkv)), bias, self.p, self.training)
        B, H, L, D = out.shape
        return self.o(out.transpose(1, 2).reshape(B, L, H * D)), w


class Encoder(nn.Module):
    def __init__(self, vocab: int, d_model: int, heads: int, layers: int):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.attn = nn.ModuleList([MHA(d_model, heads) for _ in range(layers)])
        self.norm = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(layers)])

    def forward(self, src, src_keep: Optional[torch.Tensor] = None):
        x = self.emb(src)
        bias = None
        if src_keep is not None:
            # src_keep: (B, L), 1 for tokens, 0 for padding -> additive (B, 1, 1, L)
            bias = (1.0 - src_keep.float()).unsqueeze(1).unsqueeze(1) * torch.finfo(x.dtype).min
        for attn, norm in zip(self.attn, self.norm):
            a, _ = attn(x, x, bias)
            x = norm(x + a)
        return x


class Decoder(nn.Module):
    def __init__(self, vocab: int, d_model: int, heads: int, layers: int):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model)
        self.self_attn = nn.ModuleList([MHA(d_model, heads) for _ in range(layers)])
        self.cross_attn = nn.ModuleList([MHA(d_model, heads) for _ in range(layers)])
        self.norm = nn.LayerNorm(d_model)
        self.out = nn.Linear(d_model, vocab, bias=False)

    @staticmethod
    def future_bias(L: int, device, dtype) -> torch.Tensor:
        bias = torch.zeros((L, L), device=device, dtype=dtype)
        bias = bias.masked_fill(torch.triu(torch.ones(L, L, device=device), diagonal=1).bool(), float("-inf"))
        return bias[None, None]  # (1, 1, L, L)

    def forward(self, tgt, memory, tgt_keep=None, src_keep=None):
        x = self.emb(tgt)
        self_bias = self.future_bias(tgt.size(1), x.device, x.dtype)
        if tgt_keep is not None:
            self_bias = self_bias + (1.0 - tgt_keep.float())[:, None, None, :] * torch.finfo(x.dtype).min
        cross_bias = None
        if src_keep is not None:
            cross_bias = (1.0 - src_keep.float())[:, None, None, :] * torch.finfo(x.dtype).min
        for sa, ca in zip(self.self_attn, self.cross_attn):
            x = x + sa(x, x, self_bias)[0]
            x = x + ca(x, memory, cross_bias)[0]
        return self.out(self.norm(x))
