"""Scaled dot-product attention with two classic bugs. Can you spot them?"""
import math

import torch


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, padding_mask: torch.Tensor) -> torch.Tensor:
    """q, k, v: (B, H, L, hd); padding_mask: (B, L), True where the token is padding."""
    d_k = q.size(-1)
    scores = q @ k.transpose(-2, -1) / d_k  # bug: the scale is 1/sqrt(d_k), not 1/d_k
    scores = scores.masked_fill(padding_mask[:, None, None, :], float("-inf"))
    weights = torch.softmax(scores, dim=-2)  # bug: softmax must run over the keys (dim=-1)
    return weights @ v


if __name__ == "__main__":
    torch.manual_seed(0)
    q = k = v = torch.randn(1, 2, 4, 8)
    mask = torch.tensor([[False, False, False, True]])
    print(attention(q, k, v, mask).shape, math.sqrt(8))
