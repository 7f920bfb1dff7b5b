import abc
from typing import Optional

import torch


class SoftAttentionBase(torch.nn.Module, metaclass=abc.ABCMeta):
    """Global soft attention over a whole (time-major) sequence.

    keys/values are (T, batch, size) by default, so the weights are a softmax over
    `dim` (0 = time). A mask is True where a key may be attended to.
    """

    def __init__(self, query_size: int, key_size: int, dim: int = 0):
        super().__init__()
        self.query_size, self.key_size, self.dim = query_size, key_size, dim

    @abc.abstractmethod
    def score(self, query: torch.Tensor, key: torch.Tensor) -> torch.Tensor:
        ...

    def forward(self, query, key, value, mask: Optional[torch.Tensor] = None):
        if query.dim() != key.dim() - 1:
            raise ValueError("query must have one fewer dimension than key")
        e = self.score(query, key)
        if mask is not None:
            e = e.masked_fill(~mask, -float("inf"))
        weights = torch.nn.functional.softmax(e, self.dim)
        return (weights.unsqueeze(-1) * value).sum(self.dim)


class DotScore(SoftAttentionBase):
    """Luong 'dot' score: sum_i query_i key_i, times an optional factor (1/size gives the scaled variant)."""

    def __init__(self, size: int, dim: int = 0, scale_factor: float = 1.0):
        super().__init__(size, size, dim)
        self.scale_factor = scale_factor

    def score(self, query, key):
        return (query.unsqueeze(self.dim) * key).sum(-1) * self.scale_factor


class GeneralScore(SoftAttentionBase):
    """Luong 'general' score: query^T W key."""

    def __init__(self, query_size: int, key_size: int, dim: int = 0, bias: bool = False):
        super().__init__(query_size, key_size, dim)
        self.proj = torch.nn.Linear(key_size, query_size, bias=bias)

    def score(self, query, key):
        return (query.unsqueeze(self.dim) * self.proj(key)).sum(-1)


class ConcatScore(SoftAttentionBase):
    """Luong 'concat' / Bahdanau score: v^T tanh(W [query; key])."""

    def __init__(self, query_size: int, key_size: int, dim: int = 0, hidden_size: int = 1000):
        super().__init__(query_size, key_size, dim)
        self.w = torch.nn.Linear(query_size + key_size, hidden_size, bias=False)
        self.v = torch.nn.Parameter(torch.randn(hidden_size))

    def score(self, query, key):
        query = query.unsqueeze(self.dim).expand(*key.shape[:-1], query.size(-1))
        both = torch.cat([query, key], -1)
        return torch.tanh(self.w(both)) @ self.v
