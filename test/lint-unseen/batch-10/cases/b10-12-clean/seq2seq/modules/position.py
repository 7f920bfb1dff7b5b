import torch
from torch import nn


class RotaryPositionalEncoding(nn.Module):
    def __init__(self, head_dim: int, base: float = 10000.0):
        super().__init__()
        self.register_buffer("inv_freq", 1.0 / (base ** (torch.arange(0, head_dim, 2).float() / head_dim)))

    def rotate(self, x: torch.Tensor, length: int) -> torch.Tensor:
        """x: B x length x heads x head_dim."""
        angles = torch.outer(torch.arange(length, device=x.device).float(), self.inv_freq)
        cos, sin = angles.cos()[None, :, None, :], angles.sin()[None, :, None, :]
        x1, x2 = x[..., 0::2], x[..., 1::2]
        return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)
