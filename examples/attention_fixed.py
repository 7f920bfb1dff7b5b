"""The same attention as attention_bug.py, written correctly."""
import math

import torch


def attention(q: torch.Tensor, k: torch.Tensor, v: torch.Tensor, padding_mask: torch.Tensor) -> torch.Tensor:
    """q, k, v: (B, H, L, hd); padding_mask: (B, L), True where the token is padding."""
    d_k = q.size(-1)
    scores = q @ k.transpose(-2, -1) / math.sqrt(d_k)  # (B, H, L, L)
    scores = scores.masked_fill(padding_mask[:, None, None, :], float("-inf"))
    weights = torch.softmax(scores, dim=-1)  # each query's weights sum to 1 over the keys
    return weights @ v  # (B, H, L, hd)


if __name__ == "__main__":
    torch.manual_seed(0)
    q = k = v = torch.randn(1, 2, 4, 8)
    mask = torch.tensor([[False, False, False, True]])
    print(attention(q, k, v, mask).shape)
