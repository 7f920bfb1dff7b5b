import torch
import torch.nn as nn

from transformer.attention import AttentionScaledDotProduct


class MultiHeadAttention(nn.Module):
    def __init__(self, model_dim: int, number_attention_heads: int, dropout_rate: float = 0.0):
        assert model_dim % number_attention_heads == 0
        super().__init__()
        self.embedding_dim = model_dim // number_attention_heads
        self.attention_heads = nn.ModuleList(
            [
                AttentionScaledDotProduct(model_dim=model_dim, embedding_dim=self.embedding_dim, dropout_rate=dropout_rate)
                for _ in range(number_attention_heads)
            ]
        )
        self.linear = nn.Linear(in_features=model_dim, out_features=model_dim, bias=False)

    def forward(self, queries: torch.Tensor, keys: torch.Tensor, values: torch.Tensor) -> torch.Tensor:
        heads = [attention(queries=queries, keys=keys, values=values) for attention in self.attention_heads]
        return self.linear(torch.concatenate(heads, dim=-1))


class TransformerEncoderLayer(nn.Module):
    def __init__(self, model_dim=256, number_attention_heads=8, dropout_rate=0.1):
        super().__init__()
        self.norm1 = nn.LayerNorm(model_dim)
        self.attention = MultiHeadAttention(model_dim, number_attention_heads, dropout_rate)
        self.norm2 = nn.LayerNorm(model_dim)
        self.mlp = nn.Sequential(nn.Linear(model_dim, 4 * model_dim), nn.GELU(), nn.Linear(4 * model_dim, model_dim))

    def forward(self, x):
        h = self.norm1(x)
        x = x + self.attention(h, h, h)
        return x + self.mlp(self.norm2(x))
