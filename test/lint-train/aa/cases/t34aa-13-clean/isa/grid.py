import numpy as np
import torch
from torch import nn


def build_grid(resolution):
    """(1, H, W, 2) grid of pixel coordinates in [0, 1]."""
    ranges = [np.linspace(0.0, 1.0, num=res) for res in resolution]
    grid = np.stack(np.meshgrid(*ranges, sparse=False, indexing="ij"), axis=-1)
    grid = np.reshape(grid, [resolution[0], resolution[1], -1])
    return np.expand_dims(grid, axis=0).astype(np.float32)


class GridEmbed(nn.Module):
    """Keeps the absolute coordinate grid; adds a linear embedding of it to a feature map."""

    def __init__(self, hidden_size, resolution):
        super().__init__()
        self.linear = nn.Linear(2, hidden_size)
        self.grid = nn.Parameter(torch.Tensor(build_grid(resolution)), requires_grad=False)

    def forward(self, inputs):
        pos = self.linear(self.grid).moveaxis(3, 1)
        return inputs + pos
