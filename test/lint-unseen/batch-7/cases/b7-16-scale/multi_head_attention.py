# case: b7-16-scale
# modelled-on: PauloHFS/gpt2-from-scratch https://github.com/PauloHFS/gpt2-from-scratch/commit/03d365a2eef14a654e7fbbd678f7bcd331cf14f5
# label: buggy
# class: real-bug
# pattern: a GPT-2 reimplementation following a from-scratch LLM book: keys, queries and values are viewed as (b, tokens, heads, head_dim) and transposed to (b, heads, tokens, head_dim), a triu(diagonal=1) buffer is applied with masked_fill_(mask_bool, -inf), and the scores are divided by keys.shape[1] ** 0.5 inside the softmax; the transformer block in another file builds the module from a configuration dict in a third file
# why: buggy: after the transpose, keys.shape[1] is the number of heads (12 in the configuration), not the head width (64), so the logits are divided by sqrt(12) instead of sqrt(64); the book divides by keys.shape[-1] ** 0.5, and the repository's own grouped-query module divides by self.head_dim ** 0.5. No fix was found
# source: https://github.com/PauloHFS/gpt2-from-scratch https://github.com/PauloHFS/gpt2-from-scratch/commit/03d365a2eef14a654e7fbbd678f7bcd331cf14f5 src/gptmodel/multi_head_attention.py
from torch import Tensor, inf, ones, softmax, triu
from torch.nn import Dropout, Linear, Module


class MultiHeadAttention(Module):
    def __init__(self, d_in: int, d_out: int, context_length: int, dropout: float, num_heads: int, qkv_bias: bool = False) -> None:
        super().__init__()
        assert d_out % num_heads == 0, "d_out must be divisible by num_heads"
        self.d_out = d_out
        self.num_heads = num_heads
        self.head_dim = d_out // num_heads
        self.W_query = Linear(d_in, d_out, bias=qkv_bias)
        self.W_key = Linear(d_in, d_out, bias=qkv_bias)
        self.W_value = Linear(d_in, d_out, bias=qkv_bias)
        self.out_proj = Linear(d_out, d_out)
        self.dropout = Dropout(dropout)
        self.register_buffer("mask", triu(ones(context_length, context_length), diagonal=1))

    def forward(self, x: Tensor) -> Tensor:
        b, num_tokens, _ = x.shape
        keys = self.W_key(x).view(b, num_tokens, self.num_heads, self.head_dim)
        values = self.W_value(x).view(b, num_tokens, self.num_heads, self.head_dim)
        queries = self.W_query(x).view(b, num_tokens, self.num_heads, self.head_dim)
        keys = keys.transpose(1, 2)  # (b, heads, tokens, head_dim)
        queries = queries.transpose(1, 2)
        values = values.transpose(1, 2)
        attn_scores = queries @ keys.transpose(2, 3)  # (b, heads, tokens, tokens)
        mask_bool = self.mask.bool()[:num_tokens, :num_tokens]
        attn_scores.masked_fill_(mask_bool, -inf)
        attn_weights = softmax(attn_scores / keys.shape[1] ** 0.5, dim=-1)  # expect: ATT004
        attn_weights = self.dropout(attn_weights)
        context_vec = (attn_weights @ values).transpose(1, 2)
        context_vec = context_vec.contiguous().view(b, num_tokens, self.d_out)
        return self.out_proj(context_vec)
