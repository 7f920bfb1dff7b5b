import copy
import math

import torch
import torch.nn as nn

from .config import Config
from .multi_head import MultiHeadAttention


class PositionwiseFeedforward(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.fc1 = nn.Linear(config.d_model, config.d_ff)
        self.fc2 = nn.Linear(config.d_ff, config.d_model)
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x):
        return self.fc2(self.dropout(torch.relu(self.fc1(x))))


class EncoderLayer(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.attn = MultiHeadAttention(config)
        self.pf = PositionwiseFeedforward(config)
        self.attn_ln = nn.LayerNorm(config.size)
        self.pf_ln = nn.LayerNorm(config.size)

    def forward(self, x):
        x = x + self.attn(self.attn_ln(x))
        return x + self.pf(self.pf_ln(x))


class TransformerText(nn.Module):
    """Pre-norm encoder over word embeddings; the last position's state is classified."""

    def __init__(self, config: Config):
        super().__init__()
        self.embedding = nn.Embedding(config.vocab_size, config.d_model)
        pe = torch.zeros(config.max_len, config.d_model)
        position = torch.arange(0, config.max_len).unsqueeze(1)
        div_term = torch.exp(torch.arange(0, config.d_model, 2) * -(math.log(10000.0) / config.d_model))
        pe[:, 0::2] = torch.sin(position * div_term)
        pe[:, 1::2] = torch.cos(position * div_term)
        self.register_buffer("pe", pe.unsqueeze(0))
        layer = EncoderLayer(config)
        self.layers = nn.ModuleList([copy.deepcopy(layer) for _ in range(config.n_layers)])
        self.norm = nn.LayerNorm(config.size)
        self.fc = nn.Linear(config.d_model, config.num_classes)
        self.scale = math.sqrt(config.d_model)

    def forward(self, x):
        # x: [batch_size, len] token ids
        out = self.embedding(x) * self.scale + self.pe[:, : x.size(1)]
        for layer in self.layers:
            out = layer(out)
        out = self.norm(out)
        return self.fc(out[:, -1, :])
