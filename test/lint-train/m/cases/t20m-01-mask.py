# case: t20m-01-mask
# modelled-on: Junni007/LLM-from-Scratch https://github.com/Junni007/LLM-from-Scratch/commit/ecb2b4c9017fc7d85cff5479458c84cd18826ff2
# label: buggy
# class: real-bug
# pattern: reward models for RLHF over a transformer encoder: attention_mask is the tokenizer's keep mask (1 for real tokens, 0 for padding; the reward head reads the last real token as attention_mask.sum(1) - 1); the small base model converts it for nn.TransformerEncoder with (1 - attention_mask).bool(), but the DeBERTa-style layer hands (1 - attention_mask) to nn.MultiheadAttention's key_padding_mask without the .bool()
# why: buggy: a non-boolean key_padding_mask is added to the scores, so the float 0/1 mask adds +1 to the padding keys and 0 to the real ones instead of hiding the padding (with an int64 mask, nn.MultiheadAttention rejects it); the conversion two classes below with .bool() is the intended one; no fix exists in the repository
# source: https://github.com/Junni007/LLM-from-Scratch https://github.com/Junni007/LLM-from-Scratch/commit/ecb2b4c9017fc7d85cff5479458c84cd18826ff2 src/reward/model.py
from typing import Optional

import torch
import torch.nn as nn


class DebertaStyleLayer(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        self.attention = nn.MultiheadAttention(embed_dim=hidden_size, num_heads=num_heads, dropout=dropout, batch_first=True)
        self.norm1 = nn.LayerNorm(hidden_size)
        self.norm2 = nn.LayerNorm(hidden_size)
        self.ffn = nn.Sequential(
            nn.Linear(hidden_size, hidden_size * 4),
            nn.GELU(),
            nn.Dropout(dropout),
            nn.Linear(hidden_size * 4, hidden_size),
            nn.Dropout(dropout),
        )

    def forward(self, hidden: torch.Tensor, attention_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        # attention_mask: (batch, seq_len), 1 for real tokens and 0 for padding
        attn_out, _ = self.attention(
            hidden,
            hidden,
            hidden,
            key_padding_mask=(1 - attention_mask) if attention_mask is not None else None,  # expect: ATT002
            need_weights=False,
        )
        hidden = self.norm1(hidden + attn_out)
        return self.norm2(hidden + self.ffn(hidden))


class DebertaRewardModel(nn.Module):
    def __init__(self, vocab_size: int, hidden_size: int = 256, num_heads: int = 4, num_layers: int = 4, max_len: int = 512):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, hidden_size)
        self.pos = nn.Embedding(max_len, hidden_size)
        self.layers = nn.ModuleList([DebertaStyleLayer(hidden_size, num_heads) for _ in range(num_layers)])
        self.reward_head = nn.Linear(hidden_size, 1)

    def forward(self, input_ids: torch.Tensor, attention_mask: Optional[torch.Tensor] = None) -> torch.Tensor:
        positions = torch.arange(input_ids.size(1), device=input_ids.device).unsqueeze(0)
        hidden = self.embed(input_ids) + self.pos(positions)
        for layer in self.layers:
            hidden = layer(hidden, attention_mask)
        if attention_mask is not None:
            last = attention_mask.sum(dim=1).long() - 1
            pooled = hidden[torch.arange(hidden.size(0), device=hidden.device), last]
        else:
            pooled = hidden[:, -1]
        return self.reward_head(pooled).squeeze(-1)


class SmallBaseModel(nn.Module):
    def __init__(self, vocab_size: int = 1000, hidden_size: int = 128):
        super().__init__()
        self.embedding = nn.Embedding(vocab_size, hidden_size)
        self.encoder = nn.TransformerEncoder(nn.TransformerEncoderLayer(d_model=hidden_size, nhead=4, batch_first=True), num_layers=2)

    def forward(self, input_ids, attention_mask=None):
        x = self.embedding(input_ids)
        key_padding_mask = (1 - attention_mask).bool() if attention_mask is not None else None
        return self.encoder(x, src_key_padding_mask=key_padding_mask)


if __name__ == "__main__":
    model = DebertaRewardModel(vocab_size=1000, hidden_size=128)
    ids = torch.randint(0, 1000, (4, 16))
    mask = torch.ones(4, 16)
    mask[:, 12:] = 0
    print(model(ids, mask).shape)
