# case: b9-03-scale
# modelled-on: oelin/attention https://github.com/oelin/attention/commit/bd26840e23b7c92877edbf690979cc8dd33430d2
# label: buggy
# class: real-bug
# pattern: a collection of single-file attention variants; relative-position-bias self-attention splits a fused QKV projection with einops into (b, h, s, e), builds the scores with einsum, adds a learned (heads or 1, L, L) bias and an additive mask, and scales inside the softmax call by math.sqrt(k.size(1))
# why: buggy: k is (batch, heads, seq, head_dim) after the rearrange, so k.size(1) is the number of heads and the logits are divided by sqrt(heads) instead of sqrt(head_dim); the same collection's scaled_dot_product_attention divides by math.sqrt(Q.size(-1)) (the paper's 1/sqrt(d_k), which its docstring cites); no fix was found
# source: https://github.com/oelin/attention https://github.com/oelin/attention/commit/bd26840e23b7c92877edbf690979cc8dd33430d2 attention/attention_with_relative_position_bias.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class RelativeBiasSelfAttention(nn.Module):
    """Self-attention with a learned bias per (query, key) offset pair."""

    def __init__(self, embed_dim: int, n_heads: int, max_len: int, shared_bias: bool = True) -> None:
        super().__init__()
        self.n_heads = n_heads
        self.to_qkv = nn.Linear(embed_dim, embed_dim * 3, bias=False)
        self.to_out = nn.Linear(embed_dim, embed_dim, bias=False)
        bias_heads = 1 if shared_bias else n_heads
        self.position_bias = nn.Parameter(1e-3 * torch.randn(bias_heads, max_len, max_len))

    def forward(self, x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
        # x: (b, s, embed_dim); mask: additive, broadcastable to (b, h, s, s)
        q, k, v = rearrange(self.to_qkv(x), "b s (k h e) -> k b h s e", k=3, h=self.n_heads)

        seq_len = q.size(-2)
        bias = self.position_bias[:, :seq_len, :seq_len]

        logits = torch.einsum("bhqe,bhke->bhqk", q, k)
        weights = F.softmax((logits + bias) / math.sqrt(k.size(1)) + mask, dim=-1)  # expect: ATT004

        out = rearrange(weights @ v, "b h s e -> b s (h e)")
        return self.to_out(out)


if __name__ == "__main__":
    layer = RelativeBiasSelfAttention(embed_dim=256, n_heads=8, max_len=128)
    x = torch.randn(2, 64, 256)
    causal = torch.triu(torch.full((64, 64), float("-inf")), diagonal=1)
    print(layer(x, causal).shape)
