"""A research attention: a chain of maskers builds the sparse pattern, then the output is computed on it."""
from typing import Any, Dict, List, Optional

import torch
from torch import nn

from masked_ops import sparse_attention_output


class SparsePatternAttention(nn.Module):
    def __init__(self, maskers: List[Any], empty_pattern_factory):
        super().__init__()
        self.maskers = maskers
        self.empty_pattern_factory = empty_pattern_factory

    def custom_attention(self, module: nn.Module, queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor,
                         attention_mask: Optional[torch.Tensor], scaling: float, dropout: float,
                         meta: Dict[str, Any]) -> torch.Tensor:
        """Called by the model's attention in place of the eager kernel; scaling is head_dim ** -0.5."""
        pattern = self.empty_pattern_factory(queries.shape[0], queries.shape[1], queries.shape[2], keys.shape[2])
        for masker in self.maskers:
            pattern = masker.add_mask(keys, queries, values, attention_mask, meta, pattern)
        return sparse_attention_output(module, queries, keys, values, attention_mask, scaling, pattern)
