from dataclasses import dataclass


@dataclass
class ViTConfig:
    image_size: int = 32
    patch_size: int = 4
    n_channels: int = 3
    latent_dim: int = 256
    n_heads: int = 8
    n_layers: int = 6
    dropout: float = 0.1
    n_classes: int = 10

    @property
    def sequence_length(self) -> int:
        return (self.image_size // self.patch_size) ** 2 + 1
