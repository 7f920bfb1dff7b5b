# case: transpose-cs336-column-major-qtk
# modelled-on: stanford-cs336/assignment1-basics https://github.com/stanford-cs336/assignment1-basics/issues/29
# label: buggy
# pattern: the handout wrote attention in column-major notation, softmax(Q^T K / sqrt(d_k)); implemented literally on row-major (..., n, d_k) tensors it becomes Q.transpose(-2, -1) @ K
# why: for row-major Q (n, d_k) and K (m, d_k), Q^T K contracts over positions and yields a d_k x d_k matrix (only when n == m), not the n x m query-key scores
import math

import torch
from torch import Tensor


def softmax(x: Tensor, dim: int) -> Tensor:
    x = x - x.amax(dim=dim, keepdim=True)
    e = torch.exp(x)
    return e / e.sum(dim=dim, keepdim=True)


def scaled_dot_product_attention(Q: Tensor, K: Tensor, V: Tensor, mask: Tensor | None = None) -> Tensor:
    """Q: (..., n, d_k); K: (..., m, d_k); V: (..., m, d_v); mask: (..., n, m) bool, True = attend."""
    d_k = Q.shape[-1]
    scores = Q.transpose(-2, -1) @ K / math.sqrt(d_k)  # expect: ATT005
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    return softmax(scores, dim=-1) @ V


class CausalMultiHeadSelfAttention(torch.nn.Module):
    def __init__(self, d_model: int, num_heads: int):
        super().__init__()
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.qkv = torch.nn.Linear(d_model, 3 * d_model, bias=False)
        self.out = torch.nn.Linear(d_model, d_model, bias=False)

    def forward(self, x: Tensor) -> Tensor:
        *batch, n, d_model = x.shape
        q, k, v = self.qkv(x).split(d_model, dim=-1)
        q, k, v = (t.view(*batch, n, self.num_heads, self.d_k).transpose(-3, -2) for t in (q, k, v))
        causal = torch.tril(torch.ones(n, n, dtype=torch.bool, device=x.device))
        y = scaled_dot_product_attention(q, k, v, causal)
        return self.out(y.transpose(-3, -2).reshape(*batch, n, d_model))
