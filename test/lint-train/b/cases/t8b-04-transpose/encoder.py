import torch.nn as nn

from config import ViTConfig
from self_attention import MultiheadedSelfAttention


class TransformerEncoder(nn.Module):
    def __init__(self, cfg: ViTConfig):
        super().__init__()
        self.ln1 = nn.LayerNorm(cfg.embedding_dimension)
        self.ln2 = nn.LayerNorm(cfg.embedding_dimension)
        self.msa = MultiheadedSelfAttention(cfg)
        self.dropout = nn.Dropout(cfg.drop_rate)
        self.mlp = nn.Sequential(
            nn.Linear(cfg.embedding_dimension, cfg.mlp_hidden_dimension),
            nn.GELU(),
            nn.Dropout(cfg.drop_rate),
            nn.Linear(cfg.mlp_hidden_dimension, cfg.embedding_dimension),
            nn.Dropout(cfg.drop_rate),
        )

    def forward(self, x):
        z, att = self.msa(self.ln1(x))
        x = x + self.dropout(z)
        x = x + self.mlp(self.ln2(x))
        return x, att
