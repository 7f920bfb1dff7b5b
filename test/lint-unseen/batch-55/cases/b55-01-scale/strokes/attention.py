# case: b55-01-scale
# modelled-on: c0deplayer/handwriting-generation https://github.com/c0deplayer/handwriting-generation/commit/2d9d0172178dfc599a5311d2f62a7aa31a58bcf7
# label: buggy
# class: real-bug
# pattern: a PyTorch port of a diffusion handwriting-synthesis model (a folder: the multi-head attention module, whose projections split the width into heads with einops so that q, k and v are (batch, heads, length, head width), and whose static attention helper takes the key depth from k.size(1); the attention blocks of the denoiser, built with 3, 4 and 6 heads over 192-, 256- and 384-wide features, which attend from the strokes to the characters under a text padding mask and then over the strokes; and the helper that builds that mask as 1.0 at the padding id)
# why: buggy: with k laid out (batch, heads, length, head width), k.size(1) is the number of heads, so the logits are divided by sqrt(3), sqrt(4) or sqrt(6) instead of sqrt(64), the per-head key width the TensorFlow reference (shape[-1]) and the helper's own name d_k stand for; the repository's fix commit e8ac508 ("fix for incorrect value in MultiHeadAttention") changes it to k.size(-1). The padding mask is 1.0 at padding and is added times -1e12 (fp32 training), which is right.
# source: https://github.com/c0deplayer/handwriting-generation https://github.com/c0deplayer/handwriting-generation/commit/2d9d0172178dfc599a5311d2f62a7aa31a58bcf7 models/Diffusion/attention.py
import math
from typing import Optional, Tuple, Union

import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange
from torch import Tensor


class HeadProjection(nn.Module):
    """Projects the features and splits them into heads."""

    def __init__(self, width: int, heads: int, *, bias: bool = True) -> None:
        super().__init__()
        self.width = width
        self.heads = heads
        self.proj = nn.Linear(width, width, bias=bias)

    def forward(self, x: Tensor) -> Tensor:
        return rearrange(self.proj(x), "b s (h d) -> b h s d", h=self.heads, d=self.width // self.heads)


class TextStrokeAttention(nn.Module):
    def __init__(self, width: int, heads: int, *, dropout: float = 0.1, with_weights: bool = True) -> None:
        super().__init__()
        self.width = width
        self.heads = heads
        self.with_weights = with_weights
        self.to_q = HeadProjection(width, heads)
        self.to_k = HeadProjection(width, heads)
        self.to_v = HeadProjection(width, heads)
        self.merge = nn.Linear(width, width)
        self.drop = nn.Dropout(dropout)

    def forward(
        self, q: Tensor, k: Tensor, v: Tensor, *, mask: Optional[Tensor] = None
    ) -> Union[Tuple[Tensor, Tensor], Tensor]:
        context, weights = self.attend(self.to_q(q), self.to_k(k), self.to_v(v), mask=mask)
        context = rearrange(self.drop(context), "b h s d -> b s (h d)")
        out = self.merge(context)
        return (out, weights) if self.with_weights else out

    @staticmethod
    def attend(q: Tensor, k: Tensor, v: Tensor, *, mask: Optional[Tensor] = None) -> Tuple[Tensor, Tensor]:
        scores = q @ k.transpose(-2, -1)
        d_k = k.size(1)
        scores /= math.sqrt(d_k)  # expect: ATT004

        if mask is not None:
            scores += mask * -1e12

        weights = F.softmax(scores, dim=-1)
        return weights @ v, weights


class FiLM(nn.Module):
    """Scale and shift by the noise level (gamma's bias starts at one)."""

    def __init__(self, cond_dim: int, width: int) -> None:
        super().__init__()
        self.gamma = nn.Linear(cond_dim, width)
        self.beta = nn.Linear(cond_dim, width)
        self.gamma.bias.data.fill_(1.0)

    def forward(self, x: Tensor, cond: Tensor) -> Tensor:
        return x * self.gamma(cond) + self.beta(cond)
