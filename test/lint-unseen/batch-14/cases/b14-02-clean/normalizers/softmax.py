import torch

from normalizers.base import BaseNormalizer


class SoftmaxNormalizer(BaseNormalizer):
    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        return torch.softmax(inputs, dim=-1)


class SumNormalizer(BaseNormalizer):
    """The book's first, naive normalization: divide by the sum."""

    def forward(self, inputs: torch.Tensor) -> torch.Tensor:
        return inputs / inputs.sum(dim=-1, keepdim=True)
