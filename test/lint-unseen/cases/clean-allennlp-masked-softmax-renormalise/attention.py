"""
An attention module that computes the similarity between an input vector and the rows of a matrix.
"""
import torch

from util import masked_softmax


class Attention(torch.nn.Module):
    """
    Inputs:
    - vector: shape `(batch_size, embedding_dim)`
    - matrix: shape `(batch_size, num_rows, embedding_dim)`
    - matrix_mask: shape `(batch_size, num_rows)`, specifying which rows are just padding.

    Output:
    - attention: shape `(batch_size, num_rows)`.
    """

    def __init__(self, normalize: bool = True) -> None:
        super().__init__()
        self._normalize = normalize

    def forward(self, vector: torch.Tensor, matrix: torch.Tensor, matrix_mask: torch.BoolTensor = None) -> torch.Tensor:
        similarities = self._forward_internal(vector, matrix)
        if self._normalize:
            return masked_softmax(similarities, matrix_mask)
        return similarities

    def _forward_internal(self, vector: torch.Tensor, matrix: torch.Tensor) -> torch.Tensor:
        raise NotImplementedError
