import math

import torch
from torch import nn


class LinearBiases(nn.Module):
    """Per-head slopes times minus the distance between query and key positions (Press et al.)."""

    def __init__(self, num_heads: int) -> None:
        super().__init__()
        self.register_buffer("slopes", self.slopes_for(num_heads))

    @staticmethod
    def slopes_for(num_heads: int) -> torch.Tensor:
        closest = 2 ** math.floor(math.log2(num_heads))
        ratio = 2.0 ** (-8.0 / closest)
        slopes = ratio ** torch.arange(1, closest + 1)
        if closest < num_heads:
            extra = (2.0 ** (-4.0 / closest)) ** torch.arange(1, 2 * (num_heads - closest) + 1, 2)
            slopes = torch.cat([slopes, extra])
        return slopes

    def forward(self, length: int, device: torch.device) -> torch.Tensor:
        pos = torch.arange(length, device=device)
        distance = -(pos[None, :] - pos[:, None]).abs()
        return self.slopes.to(device)[:, None, None] * distance
