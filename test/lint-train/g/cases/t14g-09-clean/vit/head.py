# case: t14g-09-clean
# modelled-on: harshiv49/vit-from-scratch https://github.com/harshiv49/vit-from-scratch/commit/d08944c8f35af75910eb5e2b9ca61efffc0e568b
# label: correct
# class: clean
# pattern: a learning repository that builds a ViT twice, once from hand-made neurons and layers (a Layer stacks per-neuron outputs with torch.stack(dim=-1)) and once from nn.Linear: each attention head projects the embedding_dimension-wide tokens to config.head_size, divides query @ key.transpose(-2, -1) by config.head_size ** 0.5 and softmaxes over the last axis; the multi-head layer checks number_of_heads * head_size == embedding_dimension and concatenates the heads; all sizes come from a config dataclass in another module (head_size 16, 12 heads, 192 wide)
# why: correct: each head's keys are head_size wide (the projection's output width, read from the same config field), so the scale is the per-head one; the neuron-built layer's torch.stack(..., dim=-1) puts the head_size outputs last, so the keys are (batch, patches, head_size) and transpose(-2, -1) is the key transpose; what a naive linter could misread: ATT004 (a scale from a config attribute rather than the key's shape), ATT005 (keys produced by a custom layer), ATT003 (a scale it cannot resolve)
# looks-like: ATT003, ATT004, ATT005
# source: https://github.com/harshiv49/vit-from-scratch https://github.com/harshiv49/vit-from-scratch/commit/d08944c8f35af75910eb5e2b9ca61efffc0e568b learning/vit/head.py
from __future__ import annotations

import torch
import torch.nn as nn

from vit.config import VitConfig
from vit.layer import LayerTorchCompatible


class Head(nn.Module):
    """One attention head built from the hand-made layer."""

    def __init__(self, config: VitConfig | None = None):
        super().__init__()
        self.config = config if config is not None else VitConfig()
        self.key = LayerTorchCompatible(self.config.embedding_dimension, self.config.head_size)
        self.query = LayerTorchCompatible(self.config.embedding_dimension, self.config.head_size)
        self.value = LayerTorchCompatible(self.config.embedding_dimension, self.config.head_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        key = self.key(x)
        query = self.query(x)
        value = self.value(x)
        scores = query @ key.transpose(-2, -1)
        scores = scores / (self.config.head_size**0.5)
        weights = torch.softmax(scores, dim=-1)
        return weights @ value


class TorchHead(nn.Module):
    def __init__(self, config: VitConfig | None = None):
        super().__init__()
        self.config = config if config is not None else VitConfig()
        self.key = nn.Linear(self.config.embedding_dimension, self.config.head_size)
        self.query = nn.Linear(self.config.embedding_dimension, self.config.head_size)
        self.value = nn.Linear(self.config.embedding_dimension, self.config.head_size)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        scores = self.query(x) @ self.key(x).transpose(-2, -1)
        scores = scores / (self.config.head_size**0.5)
        return torch.softmax(scores, dim=-1) @ self.value(x)


class TorchMultiHeadAttention(nn.Module):
    def __init__(self, config: VitConfig | None = None):
        super().__init__()
        self.config = config if config is not None else VitConfig()
        if self.config.number_of_heads * self.config.head_size != self.config.embedding_dimension:
            raise ValueError("number_of_heads * head_size must equal embedding_dimension")
        self.heads = nn.ModuleList([TorchHead(self.config) for _ in range(self.config.number_of_heads)])
        self.output_projection = nn.Linear(self.config.number_of_heads * self.config.head_size, self.config.embedding_dimension)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.output_projection(torch.cat([head(x) for head in self.heads], dim=-1))
