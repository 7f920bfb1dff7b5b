# case: b44-11-clean
# modelled-on: SuStackx0/self-attention https://github.com/SuStackx0/self-attention/commit/bad55bf4cb7d26d7f0054817cdcdeada7a09979b
# label: correct
# class: clean
# pattern: a from-scratch teaching GPT (a folder: the attention module, written once in NumPy for a single sequence and once in PyTorch for (B, H, T, d) heads, with the causal-mask helper, and the model that builds the mask and stacks the blocks): the mask is triu(ones(bool), diagonal=1) with True at the future keys; the PyTorch path fills where True with -inf, the NumPy path adds mask * -1e9; both scale by 1/sqrt(d_k) and normalise over the last axis (NumPy with a max-subtracted exp); a NumPy demo builds the same triangle with np.triu(..., k=1)
# why: correct: the triangle is True exactly at the future positions, and both consumers treat True as hidden (masked_fill where True, and + True * -1e9), so the polarity agrees; the diagonal is never masked, so no row is all -inf; 1/sqrt(d_k) uses the per-head width (d_model // n_heads) in the module and the key width in the NumPy function; the softmaxes run over the key axis
# looks-like: ATT002, ATT007
# source: https://github.com/SuStackx0/self-attention https://github.com/SuStackx0/self-attention/commit/bad55bf4cb7d26d7f0054817cdcdeada7a09979b src/attention.py
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

from attention import Heads, attend_np, future_positions


class Block(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(d_model), nn.LayerNorm(d_model)
        self.attn = Heads(d_model, n_heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))

    def forward(self, x, blocked):
        x = x + self.attn(self.ln1(x), blocked)
        return x + self.ff(self.ln2(x))


class TinyGPT(nn.Module):
    def __init__(self, vocab: int, ctx: int = 128, d_model: int = 128, n_heads: int = 4, depth: int = 4):
        super().__init__()
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(ctx, d_model)
        self.blocks = nn.ModuleList(Block(d_model, n_heads, 4 * d_model) for _ in range(depth))
        self.ln = nn.LayerNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)

    def forward(self, idx, targets=None):
        t = idx.size(1)
        x = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))
        blocked = future_positions(t, idx.device)
        for blk in self.blocks:
            x = blk(x, blocked)
        logits = self.head(self.ln(x))
        loss = None if targets is None else F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        return logits, loss


def numpy_demo(t: int = 5, d: int = 8, seed: int = 0):
    rng = np.random.default_rng(seed)
    q, k, v = (rng.standard_normal((t, d)) for _ in range(3))
    blocked = np.triu(np.ones((t, t), dtype=bool), k=1)
    _, weights = attend_np(q, k, v, blocked)
    return weights
