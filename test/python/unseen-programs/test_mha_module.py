# label: correct
# why: pytest checks of an nn.MultiheadAttention block (batch-first) with a float causal mask and a bool key_padding_mask
import pytest
import torch
import torch.nn as nn


class Block(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.attn = nn.MultiheadAttention(d, heads, batch_first=True)
        self.ln = nn.LayerNorm(d)

    def forward(self, x, key_padding_mask):
        T = x.size(1)
        causal = torch.full((T, T), float("-inf")).triu(diagonal=1)
        h, w = self.attn(x, x, x, attn_mask=causal, key_padding_mask=key_padding_mask)
        return self.ln(x + h), w


@pytest.mark.parametrize("batch,length", [(2, 5), (3, 8)])
def test_block_shapes(batch, length):
    torch.manual_seed(47 + length)
    x = torch.randn(batch, length, 32)
    pad = torch.zeros(batch, length, dtype=torch.bool)
    pad[0, -2:] = True
    y, w = Block()(x, pad)
    assert y.shape == x.shape
    assert w.shape == (batch, length, length)
    assert torch.allclose(w.sum(-1), torch.ones(batch, length), atol=1e-5)
