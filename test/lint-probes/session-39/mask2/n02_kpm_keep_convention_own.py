import torch
import torch.nn as nn


class Attention(nn.Module):
    """Follows flash-attn: key_padding_mask is (B, S) bool, True = keep."""

    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, key_padding_mask=None):
        B, S, d = x.shape
        q, k, v = self.qkv(x).view(B, S, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) / (d // self.h) ** 0.5
        if key_padding_mask is not None:
            s = s.masked_fill(~key_padding_mask[:, None, None, :], float("-inf"))
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, S, d)


def run(layer, x, ids, pad):
    return layer(x, key_padding_mask=ids != pad)
