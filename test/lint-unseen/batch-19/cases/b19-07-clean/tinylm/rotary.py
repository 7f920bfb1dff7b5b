import torch
import torch.nn as nn


class Rotary(nn.Module):
    def __init__(self, head_dim, max_len=4096, base=10000.0):
        super().__init__()
        inv_freq = 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim))
        angles = torch.outer(torch.arange(max_len).float(), inv_freq)
        self.register_buffer("cos_t", angles.cos(), persistent=False)
        self.register_buffer("sin_t", angles.sin(), persistent=False)

    def forward(self, length, offset=0):
        end = offset + length
        assert end <= self.cos_t.size(0), "position beyond the rotary table"
        return self.cos_t[offset:end], self.sin_t[offset:end]


def rotate(x, cos, sin):
    half = x.shape[-1] // 2
    x1, x2 = x[..., :half], x[..., half:]
    cos = cos[None, None].to(x.dtype)
    sin = sin[None, None].to(x.dtype)
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1)
