import os
import sys

import torch

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src"))
from attention import MultiHeadAttention  # noqa: E402


def test_weights_sum_to_one():
    model = MultiHeadAttention(d_model=16, num_heads=2)
    x = torch.randn(2, 4, 16)
    _, weights = model(x, x, x)
    sums = weights.sum(dim=-1)
    assert torch.allclose(sums, torch.ones_like(sums), atol=1e-6)


def test_mask_blocks_attention():
    model = MultiHeadAttention(d_model=16, num_heads=2)
    x = torch.randn(1, 4, 16)
    mask = torch.zeros(1, 4, 4, dtype=torch.bool)
    mask[:, :, 1:] = True  # block every key but the first
    _, weights = model(x, x, x, mask)
    blocked = weights[:, :, :, 1:]
    assert torch.allclose(blocked, torch.zeros_like(blocked), atol=1e-6)
