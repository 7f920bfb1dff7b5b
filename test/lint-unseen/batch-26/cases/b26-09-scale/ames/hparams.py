from dataclasses import dataclass


@dataclass
class HyperParams:
    hidden_dim: int = 128
    n_heads: int = 4
    n_layers: int = 6
    dropout: float = 0.1
    max_path_distance: int = 5
