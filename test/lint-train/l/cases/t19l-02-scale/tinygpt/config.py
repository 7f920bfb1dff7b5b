from dataclasses import dataclass


@dataclass
class BaseConfig:
    data_dir: str = "data"
    seed: int = 1337
    device: str = "cpu"


@dataclass
class TrainConfig(BaseConfig):
    batch_size: int = 32
    block_size: int = 8  # context length
    n_embed: int = 32  # embedding width
    n_layers: int = 4
    n_heads: int = 4
    dropout: float = 0.0
    bias: bool = True
    learning_rate: float = 1e-3
    max_iters: int = 5000
