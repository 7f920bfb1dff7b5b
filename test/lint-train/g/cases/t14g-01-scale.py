# case: t14g-01-scale
# modelled-on: b-schoen/gpt_from_scratch https://github.com/b-schoen/gpt_from_scratch/commit/1bf0173ccde89fe2b6d79b1d59f540e204094f8e
# label: buggy
# class: real-bug
# pattern: a character-level GPT written along a video lecture, with jaxtyping shape annotations: a Head module projects n_embed-wide tokens to d_model-wide keys, queries and values (d_model is the head width here), divides q @ k.transpose(-2, -1) by math.sqrt(self.n_embed), masks the future with a tril buffer and softmaxes over the last axis; a MultiHeadAttention module builds n_heads Heads and raises unless n_heads * d_model == n_embed, then concatenates them
# why: buggy: the keys of each head are d_model = n_embed / n_heads wide (the layer's own check enforces it), but the scores are divided by sqrt(n_embed), sqrt(n_heads) times too much, so every head's softmax is flattened; the paper scales by the key width (1/sqrt(d_k)); no fix was found, the label rests on the paper and the module's own shapes
# source: https://github.com/b-schoen/gpt_from_scratch https://github.com/b-schoen/gpt_from_scratch/commit/1bf0173ccde89fe2b6d79b1d59f540e204094f8e gpt_from_scratch/bigram_with_self_attention.py
import math

import torch
import torch.nn as nn
from jaxtyping import Float32, jaxtyped
from torch import Tensor
from torch.nn import functional as F
from typeguard import typechecked as typechecker


class Head(nn.Module):
    """One head of causal self-attention; d_model is the head's width."""

    def __init__(self, d_model: int, n_embed: int, block_size: int, dropout: float) -> None:
        super().__init__()
        self.n_embed = n_embed
        self.d_model = d_model
        self.key = nn.Linear(n_embed, d_model, bias=False)
        self.query = nn.Linear(n_embed, d_model, bias=False)
        self.value = nn.Linear(n_embed, d_model, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))
        self.dropout = nn.Dropout(dropout)

    @jaxtyped(typechecker=typechecker)
    def forward(self, x: Float32[Tensor, "batch block n_embed"]) -> Float32[Tensor, "batch block d_model"]:
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        weights = q @ k.transpose(-2, -1)  # (B, T, T)
        weights = weights / math.sqrt(self.n_embed)  # expect: ATT004
        weights = weights.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        weights = F.softmax(weights, dim=-1)
        weights = self.dropout(weights)
        v = self.value(x)
        return weights @ v


class MultiHeadAttention(nn.Module):
    def __init__(self, n_heads: int, d_model: int, n_embed: int, block_size: int, dropout: float) -> None:
        super().__init__()
        if n_heads * d_model != n_embed:
            raise ValueError(f"{n_heads=} heads of width {d_model=} must stack back to {n_embed=}")
        self.heads = nn.ModuleList(
            [Head(d_model=d_model, n_embed=n_embed, block_size=block_size, dropout=dropout) for _ in range(n_heads)]
        )
        self.proj = nn.Linear(n_embed, n_embed)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x: Tensor) -> Tensor:
        out = torch.cat([head(x) for head in self.heads], dim=-1)
        return self.dropout(self.proj(out))


if __name__ == "__main__":
    n_embed, n_heads = 384, 6
    layer = MultiHeadAttention(n_heads=n_heads, d_model=n_embed // n_heads, n_embed=n_embed, block_size=256, dropout=0.2)
    print(layer(torch.randn(4, 256, n_embed)).shape)
