# case: b55-02-scale
# modelled-on: c0deplayer/handwriting-generation https://github.com/c0deplayer/handwriting-generation/commit/e8ac508b664ebb9d9dedc7b8e776d676f5409f6f
# label: correct
# class: fixed
# pattern: the handwriting-diffusion port after its scale fix, as one file: the multi-head attention, whose projections split the width into heads with einops so that q, k and v are (batch, heads, length, head width), takes the key depth for the scale from k.size(-1) and adds a 0/1 padding mask times -1e12 before the softmax; and the text/style encoder that calls it with 8 heads, the embedded characters as queries and the writer-style features as keys and values, without a mask
# why: correct: after the fix (commit e8ac508, "fix for incorrect value in MultiHeadAttention") the depth is the last axis of the keys, the per-head width, so the logits are divided by sqrt(head width) as in the TensorFlow reference; the softmax is over the last axis, the keys; the optional mask is 1.0 at padding and is added times -1e12 in fp32, so padded keys get no weight; the encoder passes no mask because every style position is real
# looks-like: ATT002, ATT003, ATT004, ATT005, ATT007
# source: https://github.com/c0deplayer/handwriting-generation https://github.com/c0deplayer/handwriting-generation/commit/e8ac508b664ebb9d9dedc7b8e776d676f5409f6f models/Diffusion/attention.py
import math

import torch.nn.functional as F
from einops import rearrange
from torch import Tensor, nn


def dot_product_heads(q: Tensor, k: Tensor, v: Tensor, mask: Tensor = None):
    logits = q @ k.transpose(-2, -1)
    dk = k.size(-1)
    logits /= math.sqrt(dk)
    if mask is not None:
        logits += mask * -1e12
    probs = F.softmax(logits, dim=-1)
    return probs @ v, probs


class HeadLinear(nn.Module):
    def __init__(self, d_model: int, heads: int, bias: bool = True) -> None:
        super().__init__()
        self.heads = heads
        self.lin = nn.Linear(d_model, d_model, bias=bias)

    def forward(self, x: Tensor) -> Tensor:
        return rearrange(self.lin(x), "b s (h d) -> b h s d", h=self.heads)


class MultiHead(nn.Module):
    def __init__(self, d_model: int, heads: int, dropout: float = 0.1, return_weights: bool = True) -> None:
        super().__init__()
        self.heads = heads
        self.return_weights = return_weights
        self.wq, self.wk, self.wv = HeadLinear(d_model, heads), HeadLinear(d_model, heads), HeadLinear(d_model, heads)
        self.out = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, q: Tensor, k: Tensor, v: Tensor, mask: Tensor = None):
        ctx, probs = dot_product_heads(self.wq(q), self.wk(k), self.wv(v), mask=mask)
        ctx = rearrange(self.dropout(ctx), "b h s d -> b s (h d)")
        return (self.out(ctx), probs) if self.return_weights else self.out(ctx)


class NoiseAffine(nn.Module):
    def __init__(self, noise_dim: int, width: int) -> None:
        super().__init__()
        self.scale = nn.Linear(noise_dim, width)
        self.shift = nn.Linear(noise_dim, width)
        nn.init.ones_(self.scale.bias)

    def forward(self, x: Tensor, noise: Tensor) -> Tensor:
        return x * self.scale(noise) + self.shift(noise)


class CharStyleEncoder(nn.Module):
    """Characters attend to the writer's style features; both are modulated by the noise level."""

    def __init__(self, style_dim: int, d_model: int, vocab_size: int = 73, hidden: int = 512) -> None:
        super().__init__()
        self.drop = nn.Dropout(0.3)
        self.style_ff = nn.Sequential(nn.Linear(style_dim // 5, hidden), nn.ReLU(), nn.Linear(hidden, d_model))
        self.norm = nn.LayerNorm(d_model, eps=1e-6, elementwise_affine=False)
        self.embed = nn.Embedding(vocab_size, d_model)
        self.mods = nn.ModuleList([NoiseAffine(style_dim // 8, d_model) for _ in range(4)])
        self.attn = MultiHead(d_model, 8)
        self.text_ff = nn.Sequential(nn.Linear(d_model, 2 * d_model), nn.ReLU(), nn.Linear(2 * d_model, d_model))

    def forward(self, chars: Tensor, style: Tensor, noise: Tensor) -> Tensor:
        b, n, c = style.shape
        style = self.drop(style).reshape(b, n * 5, c // 5)
        style = self.mods[0](self.norm(self.style_ff(style)), noise)
        text = self.mods[1](self.norm(self.embed(chars)), noise)
        attended, _ = self.attn(text, style, style)
        text = self.mods[2](self.norm(text + attended), noise)
        return self.mods[3](self.norm(self.text_ff(text)), noise)
