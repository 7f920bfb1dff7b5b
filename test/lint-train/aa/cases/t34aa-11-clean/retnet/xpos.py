import torch
import torch.nn as nn


def sinusoids(scale):
    seq_len, dim = scale.shape
    inv_freq = 1.0 / (10000 ** (torch.arange(0, dim) / dim))
    angles = torch.einsum("i , j -> i j", torch.arange(0, seq_len, dtype=torch.float), inv_freq).to(scale)
    return torch.sin(angles), torch.cos(angles)


def rotate_every_two(x):
    x1 = x[:, :, ::2]
    x2 = x[:, :, 1::2]
    return torch.stack((-x2, x1), dim=-1).flatten(-2)


def interleave(m):
    rows = m.shape[0]
    return m.view(-1, 1).repeat(1, 2).view(rows, -1)


class XPOS(nn.Module):
    """Rotary embedding with an exponential length scale (xPos): q scaled up, k scaled down by position."""

    def __init__(self, head_dim, scale_base=512):
        super().__init__()
        self.scale_base = scale_base
        self.register_buffer("scale", (torch.arange(0, head_dim, 2) + 0.4 * head_dim) / (1.4 * head_dim))

    def forward(self, x, offset=0, downscale=False):
        length = x.shape[1]
        scale = self.scale ** torch.arange(0, length + offset).to(self.scale).div(self.scale_base)[:, None]
        sin, cos = sinusoids(scale)
        if scale.shape[0] > length:
            scale, sin, cos = scale[-length:], sin[-length:], cos[-length:]
        if downscale:
            scale = 1 / scale
        sin, cos = interleave(sin * scale), interleave(cos * scale)
        return x * cos[:, : x.shape[-1]] + (rotate_every_two(x) * sin)[:, :, : x.shape[-1]]
