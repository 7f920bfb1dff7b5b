# case: b32-02-clean
# modelled-on: Kaz0818/japanese-mini-gpt https://github.com/Kaz0818/japanese-mini-gpt/commit/177132e8cc60e4d6a1fc9212016dbe7cf2b8333f
# label: correct
# class: clean
# pattern: a small Japanese character-level GPT trained on Aozora texts: CausalSelfAttention splits one Linear(E, 3E) into query, key and value, views each as (batch, heads, block, head_dim), divides query @ key.transpose(-2, -1) by head_dim ** 0.5, slices a registered boolean tril buffer ("True means the key position is visible") to the sequence length and fills ~visible_positions with -inf before F.softmax(dim=-1)
# why: correct: the buffer is True on visible keys, so ~visible_positions is exactly the future, which gets -inf (the diagonal is always visible, so no row is all -inf); the scale is one head's width; the softmax runs over the keys
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/Kaz0818/japanese-mini-gpt https://github.com/Kaz0818/japanese-mini-gpt/commit/177132e8cc60e4d6a1fc9212016dbe7cf2b8333f mini_transformer/model.py
from dataclasses import dataclass

import torch
from torch import nn
import torch.nn.functional as F


@dataclass(frozen=True)
class MiniTransformerConfig:
    vocab_size: int
    block_size: int = 64
    embedding_dim: int = 128
    num_layers: int = 2
    num_heads: int = 4
    feed_forward_dim: int = 512
    dropout: float = 0.1


class CausalSelfAttention(nn.Module):
    def __init__(self, config: MiniTransformerConfig) -> None:
        super().__init__()
        if config.embedding_dim % config.num_heads != 0:
            raise ValueError("embedding_dim must be divisible by num_heads")
        self.num_heads = config.num_heads
        self.head_dim = config.embedding_dim // config.num_heads
        self.query_key_value = nn.Linear(config.embedding_dim, 3 * config.embedding_dim)
        self.output_projection = nn.Linear(config.embedding_dim, config.embedding_dim)
        self.attention_dropout = nn.Dropout(config.dropout)
        self.residual_dropout = nn.Dropout(config.dropout)

        # [1, 1, block, block]; True where the key position is visible to the query.
        visible = torch.tril(torch.ones(config.block_size, config.block_size, dtype=torch.bool))
        self.register_buffer("causal_mask", visible.view(1, 1, config.block_size, config.block_size))

    def _heads(self, t: torch.Tensor, batch_size: int, sequence_length: int) -> torch.Tensor:
        return t.view(batch_size, sequence_length, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        batch_size, sequence_length, embedding_dim = x.shape
        query, key, value = self.query_key_value(x).split(embedding_dim, dim=2)
        query = self._heads(query, batch_size, sequence_length)
        key = self._heads(key, batch_size, sequence_length)
        value = self._heads(value, batch_size, sequence_length)

        attention_scores = query @ key.transpose(-2, -1)
        attention_scores = attention_scores / (self.head_dim ** 0.5)
        visible_positions = self.causal_mask[:, :, :sequence_length, :sequence_length]
        attention_scores = attention_scores.masked_fill(~visible_positions, float("-inf"))

        attention_weights = F.softmax(attention_scores, dim=-1)
        attention_weights = self.attention_dropout(attention_weights)
        attended = (attention_weights @ value).transpose(1, 2).contiguous()
        attended = attended.view(batch_size, sequence_length, embedding_dim)
        return self.residual_dropout(self.output_projection(attended))


class TransformerBlock(nn.Module):
    def __init__(self, config: MiniTransformerConfig) -> None:
        super().__init__()
        self.attention_norm = nn.LayerNorm(config.embedding_dim)
        self.attention = CausalSelfAttention(config)
        self.feed_forward_norm = nn.LayerNorm(config.embedding_dim)
        self.feed_forward = nn.Sequential(
            nn.Linear(config.embedding_dim, config.feed_forward_dim),
            nn.GELU(),
            nn.Linear(config.feed_forward_dim, config.embedding_dim),
            nn.Dropout(config.dropout),
        )

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attention(self.attention_norm(x))
        return x + self.feed_forward(self.feed_forward_norm(x))


class MiniTransformerDecoder(nn.Module):
    def __init__(self, config: MiniTransformerConfig) -> None:
        super().__init__()
        self.config = config
        self.token_embedding = nn.Embedding(config.vocab_size, config.embedding_dim)
        self.position_embedding = nn.Embedding(config.block_size, config.embedding_dim)
        self.blocks = nn.ModuleList([TransformerBlock(config) for _ in range(config.num_layers)])
        self.final_norm = nn.LayerNorm(config.embedding_dim)
        self.language_modeling_head = nn.Linear(config.embedding_dim, config.vocab_size, bias=False)

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        _, sequence_length = input_ids.shape
        if sequence_length > self.config.block_size:
            raise ValueError("sequence longer than block_size")
        positions = torch.arange(sequence_length, device=input_ids.device)
        x = self.token_embedding(input_ids) + self.position_embedding(positions)
        for block in self.blocks:
            x = block(x)
        return self.language_modeling_head(self.final_norm(x))
