# label: buggy
# why: the block zeroes padded keys with masked_fill after the softmax, so the weights no longer sum to 1 (the tests only check shapes)
import math

import pytest
import torch
import torch.nn as nn


class EncoderBlock(nn.Module):
    def __init__(self, d_model=32, n_heads=4):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.w_qkv = nn.Linear(d_model, 3 * d_model)
        self.w_o = nn.Linear(d_model, d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, 64), nn.ReLU(), nn.Linear(64, d_model))

    def forward(self, x, pad_mask):
        B, T, _ = x.shape
        q, k, v = self.w_qkv(x).view(B, T, 3, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.d_k)
        attn = torch.softmax(scores, dim=-1)
        attn = attn.masked_fill(pad_mask[:, None, None, :], 0.0)  # expect: ATT006
        h = x + self.w_o((attn @ v).transpose(1, 2).reshape(B, T, -1))
        return h + self.ff(h)


@pytest.fixture
def batch():
    torch.manual_seed(43)
    ids = torch.tensor([[4, 8, 15, 0, 0], [16, 23, 42, 7, 0]])
    return nn.Embedding(50, 32, padding_idx=0)(ids), ids == 0


def test_output_shape(batch):
    x, pad = batch
    out = EncoderBlock()(x, pad)
    assert out.shape == x.shape


def test_backward(batch):
    x, pad = batch
    block = EncoderBlock()
    block(x, pad).sum().backward()
    assert block.w_qkv.weight.grad is not None
