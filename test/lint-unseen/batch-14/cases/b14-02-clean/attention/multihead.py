# case: b14-02-clean
# modelled-on: elcapo/llm-from-scratch https://github.com/elcapo/llm-from-scratch/commit/48a376b5072d18cdcab1ba9d3f635542043bab55
# label: correct
# class: clean
# pattern: the multi-head causal attention of a book-following LLM-from-scratch package whose softmax is a pluggable normalizer module (another file, passed in as a default argument); keys, queries and values are viewed as (b, tokens, heads, head_dim) and transposed to put the heads second, the scores are queries @ keys.transpose(2, 3), the causal triu buffer is sliced to the sequence and filled in place with -inf, and the scores are divided by keys.shape[-1]**0.5 before the normalizer
# why: correct: after the view and transpose keys.shape[-1] is head_dim, the per-head key width, so the scale is the paper's; transpose(2, 3) swaps the last two axes of the 4-D keys; masked_fill_ works in place on the scores that the normalizer then reads, with the triu (1 above the diagonal = future) as the blocked positions; the normalizer is a softmax over the last (key) axis; what a naive linter could misread: ATT004 (a scale read from the keys' shape through a helper module), ATT005 (transpose(2, 3) rather than (-2, -1)), ATT007 / ATT002 (an in-place fill of a triu mask), ATT001 (the softmax is in another module)
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/elcapo/llm-from-scratch https://github.com/elcapo/llm-from-scratch/commit/48a376b5072d18cdcab1ba9d3f635542043bab55 scratch/attention/multihead_attention.py
import torch

from normalizers.base import BaseNormalizer
from normalizers.softmax import SoftmaxNormalizer


class MultiHeadAttention(torch.nn.Module):
    def __init__(
        self,
        d_in: int,
        d_out: int,
        context_length: int,
        dropout: float = 0.5,
        num_heads: int = 4,
        qkv_bias: bool = False,
        normalizer: BaseNormalizer = SoftmaxNormalizer(),
    ):
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.normalizer = normalizer
        self.W_query = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = torch.nn.Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = torch.nn.Linear(d_out, d_out)
        self.dropout = torch.nn.Dropout(dropout)
        self.register_buffer("mask", torch.triu(torch.ones(context_length, context_length), diagonal=1))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        b, num_tokens, _ = x.shape
        keys = self.W_key(x).view(b, num_tokens, self.num_heads, self.head_dim)
        queries = self.W_query(x).view(b, num_tokens, self.num_heads, self.head_dim)
        values = self.W_value(x).view(b, num_tokens, self.num_heads, self.head_dim)
        # heads second: (b, heads, tokens, head_dim)
        keys = keys.transpose(1, 2)
        queries = queries.transpose(1, 2)
        values = values.transpose(1, 2)
        scores = queries @ keys.transpose(2, 3)
        blocked = self.mask.bool()[:num_tokens, :num_tokens]
        scores.masked_fill_(blocked, -torch.inf)
        weights = self.normalizer(scores / keys.shape[-1] ** 0.5)
        weights = self.dropout(weights)
        context = (weights @ values).transpose(1, 2)
        context = context.contiguous().view(b, num_tokens, self.d_out)
        return self.out_proj(context)
