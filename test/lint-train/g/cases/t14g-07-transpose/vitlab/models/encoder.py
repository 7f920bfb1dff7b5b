import torch

from vitlab.config import ViTConfig
from vitlab.models.attention import MultiHeadAttentionBlock


class TransformerEncoderLayer(torch.nn.Module):
    def __init__(self, n_heads: int, latent_dim: int, dropout: float):
        super().__init__()
        self.layer_norm_1 = torch.nn.LayerNorm(latent_dim)
        self.multi_head_attention = MultiHeadAttentionBlock(n_heads, latent_dim, dropout)
        self.layer_norm_2 = torch.nn.LayerNorm(latent_dim)
        self.mlp = torch.nn.Sequential(
            torch.nn.Linear(latent_dim, latent_dim),
            torch.nn.GELU(),
            torch.nn.Dropout(dropout),
            torch.nn.Linear(latent_dim, latent_dim),
            torch.nn.Dropout(dropout),
        )

    def forward(self, x):
        x = x + self.multi_head_attention(self.layer_norm_1(x))
        return x + self.mlp(self.layer_norm_2(x))


def build_encoder(config: ViTConfig) -> torch.nn.Sequential:
    return torch.nn.Sequential(
        *[TransformerEncoderLayer(config.n_heads, config.latent_dim, config.dropout) for _ in range(config.n_layers)]
    )
