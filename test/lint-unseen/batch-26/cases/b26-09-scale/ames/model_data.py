from dataclasses import dataclass
from typing import Optional

import torch


@dataclass
class ModelData:
    """Carries a batch of padded subgraphs through the layers."""

    x: torch.Tensor  # (batch, max_subgraph_size, hidden_dim), zero rows for padding nodes
    attention_prior: Optional[torch.Tensor] = None  # (batch, num_heads, n, n) spatial/edge bias
    normalized_input: Optional[torch.Tensor] = None
    attention_output: Optional[torch.Tensor] = None
