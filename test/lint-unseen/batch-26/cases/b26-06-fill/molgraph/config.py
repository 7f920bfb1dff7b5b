from dataclasses import dataclass

import torch
import torch.nn as nn


@dataclass
class Config:
    d_model: int = 80
    d_ffn: int = 80
    d_head: int = 10
    n_heads: int = 8
    n_layers: int = 10
    attention_dropout: float = 0.1
    ffn_dropout: float = 0.1
    ffn_activation: nn.Module = nn.GELU()
    max_dist: int = 20
    device: str = "cuda" if torch.cuda.is_available() else "cpu"
