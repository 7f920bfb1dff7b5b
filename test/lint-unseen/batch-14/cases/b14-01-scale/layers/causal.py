# case: b14-01-scale
# modelled-on: elcapo/llm-from-scratch https://github.com/elcapo/llm-from-scratch/commit/48a376b5072d18cdcab1ba9d3f635542043bab55
# label: buggy
# class: real-bug
# pattern: a book-following LLM-from-scratch package in which the softmax is a pluggable "normalizer" module; a refactor moved the single-head causal attention's scaling into an "adjusted" softmax normalizer (another module) that divides its input by sqrt(keys_dim) and built it from the layer's input width d_in; the layer projects d_in to d_out with three Linear layers, fills the upper triangle of a triu buffer with -inf and hands the raw scores to the normalizer
# why: buggy: the keys are d_out wide (the layer's own Linear(d_in, d_out); the book's and the repository's docs and tests build it with d_in=3, d_out=2), and the version before the refactor divided by keys.shape[-1]**0.5; after it the scores are divided by sqrt(d_in), the input width, so the scale is wrong whenever d_in != d_out; no fix was found, the label rests on the previous version, the paper's 1/sqrt(d_k) and the layer's own shapes. The same forward also calls the out-of-place masked_fill and drops its result, so the causal mask is never applied (it was so before the refactor too): the -inf fill never reaches the scores
# source: https://github.com/elcapo/llm-from-scratch https://github.com/elcapo/llm-from-scratch/commit/48a376b5072d18cdcab1ba9d3f635542043bab55 scratch/attention/causal_attention.py
from typing import Optional

import torch

from norms.base import Normalizer
from norms.scaled_softmax import ScaledSoftmax


class CausalSelfAttention(torch.nn.Module):
    def __init__(
        self,
        d_in: int,
        d_out: int,
        context_length: int,
        dropout: float = 0.5,
        qkv_bias: bool = False,
        normalizer: Optional[Normalizer] = None,
    ):
        super().__init__()
        self.normalizer = normalizer if normalizer is not None else ScaledSoftmax(d_in)
        self.W_query = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.dropout = torch.nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        # x: (batch, tokens, d_in)
        keys = self.W_key(x)
        queries = self.W_query(x)
        values = self.W_value(x)
        scores = queries @ keys.transpose(1, 2)  # (batch, tokens, tokens)
        scores.masked_fill(self.mask.bool(), -torch.inf)  # expect: ATT007
        weights = self.normalizer(scores)
        return weights @ values
