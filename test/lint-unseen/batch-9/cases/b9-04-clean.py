# case: b9-04-clean
# modelled-on: oelin/attention https://github.com/oelin/attention/commit/53b9304ff9dcd612692f7646321e3ebe1a756cf8
# label: correct
# class: clean
# pattern: a functional scaled dot-product attention documented against PyTorch's SDPA: a 0/1 keep mask of shape (T, S) is turned additive inside the function with masked_fill(mask == 0, -inf), the keys are transposed on their last two axes, the scores are divided by sqrt(Q.size(-1)) and softmaxed over the last axis; a thin nn.Module wraps it and a caller passes a tril keep mask
# why: correct: the keep mask (1 = attend) becomes -inf exactly where it is 0 and stays 1.0 where kept, a constant shift of every kept logit in a row that the softmax ignores; Q.size(-1) is the per-head query width for both (B, T, d) and (B, H, T, d) inputs; the softmax runs over the key axis; the tril keep mask always keeps the diagonal
# looks-like: ATT002, ATT003, ATT004, ATT005, ATT007
# source: https://github.com/oelin/attention https://github.com/oelin/attention/commit/53b9304ff9dcd612692f7646321e3ebe1a756cf8 attention/scaled_dot_product_attention.py
import math
from typing import Tuple

import torch
import torch.nn as nn


def scaled_dot_product_attention(
    Q: torch.Tensor,
    K: torch.Tensor,
    V: torch.Tensor,
    mask: torch.Tensor,
) -> Tuple[torch.Tensor, torch.Tensor]:
    """Scaled dot-product attention.

    Q: (B, T, QD), K: (B, S, QD), V: (B, S, VD); mask: (T, S), 1 = attend, 0 = blocked.
    Returns the values (B, T, VD) and the weights (B, T, S).
    """
    mask = mask.masked_fill(mask == 0, -torch.inf)
    score = Q @ K.transpose(-2, -1)
    score = score / math.sqrt(Q.size(-1))
    score = score + mask
    score = torch.softmax(score, dim=-1)
    value = score @ V
    return value, score


class ScaledDotProductAttention(nn.Module):
    def forward(self, Q: torch.Tensor, K: torch.Tensor, V: torch.Tensor, mask: torch.Tensor):
        return scaled_dot_product_attention(Q, K, V, mask)


if __name__ == "__main__":
    B, T, D = 5, 10, 16
    x = torch.randn(B, T, D)
    keep = torch.tril(torch.ones(T, T))
    value, score = ScaledDotProductAttention()(x, x, x, keep)
    assert torch.allclose(score.sum(-1), torch.ones(B, T))
    print(value.shape, score.shape)
