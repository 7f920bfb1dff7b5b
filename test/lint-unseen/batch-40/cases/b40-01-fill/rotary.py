import torch
import torch.nn as nn


class RotaryEncoding(nn.Module):
    """Rotates the first `d` features of the last axis pairwise by position-dependent angles."""

    def __init__(self, d: int, base: int = 10_000) -> None:
        super().__init__()
        self.d = d
        self.base = base

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        if self.d == 0:
            return x
        seq_len = x.shape[-2]
        theta = 1.0 / (self.base ** (torch.arange(0, self.d, 2, device=x.device).float() / self.d))
        angles = torch.arange(seq_len, device=x.device).float()[:, None] * theta[None, :]
        angles = torch.cat([angles, angles], dim=-1)
        head, tail = x[..., : self.d], x[..., self.d :]
        half = self.d // 2
        swapped = torch.cat([-head[..., half:], head[..., :half]], dim=-1)
        head = head * angles.cos() + swapped * angles.sin()
        return torch.cat([head, tail], dim=-1)
