# case: t26s-08-clean
# modelled-on: SimpleTheory/transformer-from-scratch https://github.com/SimpleTheory/transformer-from-scratch/commit/04f2d6b078deff42b3dee7bb8a6998d6d984b0a5
# label: correct
# class: clean
# pattern: a GPT written from scratch with its own autograd Functions: the softmax is a torch.autograd.Function in a functions module (max-shifted exp divided by its sum over `dim`), called through a wrapper softmax_with_kwarg(x, dim=-1) because .apply takes no keywords; the causal mask is a helper in a masking module that builds tril(ones, dtype=bool) and calls masked_fill(~keep, -inf); the attention takes a boolean flag named mask (default True) and, when set, passes the scaled scores through that helper; the scores are query @ key.transpose(-2, -1) divided by math.sqrt(dimensions_per_head), with the projection weights initialised by randn / math.sqrt(embedding_dim)
# why: correct: the hand-written softmax normalises over dim=-1, the key axis of the (B, H, T, T) scores, before the product with the values; tril(...) is True where attention is allowed, so ~keep blocks exactly the future positions; the 1/sqrt(d) factor on the scores is the per-head width, while the sqrt(embedding_dim) divisions scale the initial weights, not the logits; "mask" here is a switch, not a tensor
# looks-like: ATT001, ATT002, ATT003, ATT004
# source: https://github.com/SimpleTheory/transformer-from-scratch https://github.com/SimpleTheory/transformer-from-scratch/commit/04f2d6b078deff42b3dee7bb8a6998d6d984b0a5 src/nn_modules.py
import math

import torch

from scratchgpt.functions import softmax_with_kwarg
from scratchgpt.masking import apply_mask


class MultiHeadAttention(torch.nn.Module):
    def __init__(self, embedding_dim: int, num_of_heads: int, columns: int = None):
        super().__init__()
        self.embedding_dim = embedding_dim
        self.columns = columns or embedding_dim
        self.num_of_heads = num_of_heads
        self.dimensions_per_head = self.columns // num_of_heads
        self.query_weights = torch.nn.Parameter(torch.randn(embedding_dim, self.columns) / math.sqrt(embedding_dim))
        self.key_weights = torch.nn.Parameter(torch.randn(embedding_dim, self.columns) / math.sqrt(embedding_dim))
        self.value_weights = torch.nn.Parameter(torch.randn(embedding_dim, self.columns) / math.sqrt(embedding_dim))
        self.out_weights = torch.nn.Parameter(torch.randn(self.columns, embedding_dim) / math.sqrt(self.columns))

    def forward(self, inputs, mask=True):
        b, t, _ = inputs.shape
        query = (inputs @ self.query_weights).view(b, t, self.num_of_heads, self.dimensions_per_head).transpose(1, 2)
        key = (inputs @ self.key_weights).view(b, t, self.num_of_heads, self.dimensions_per_head).transpose(1, 2)
        value = (inputs @ self.value_weights).view(b, t, self.num_of_heads, self.dimensions_per_head).transpose(1, 2)

        scores = query @ key.transpose(-2, -1)
        scores = scores / math.sqrt(self.dimensions_per_head)
        if mask:
            scores = apply_mask(scores)
        weights = softmax_with_kwarg(scores, dim=-1)

        out = (weights @ value).transpose(1, 2).reshape(b, t, self.columns)
        return out @ self.out_weights
