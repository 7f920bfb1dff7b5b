import torch

from norms.base import Normalizer


class ScaledSoftmax(Normalizer):
    """Softmax over the last axis after dividing by the square root of the key width."""

    def __init__(self, keys_dim: int):
        super().__init__()
        self.keys_dim = keys_dim

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        return torch.softmax(inputs / self.keys_dim**0.5, dim=-1)  # expect: ATT004
