# case: b33-01-clean
# modelled-on: shawnwan47/ST_Attention https://github.com/shawnwan47/ST_Attention/commit/082a811cbc29d7b796b91d8e00682c9b9f40cb0c
# label: correct
# class: clean
# pattern: spatio-temporal traffic forecasting (METR-LA / PEMS-BAY sensors): a spatial transformer encoder over the sensors of one time step, whose layers use modules/attn.py's MultiHeadedAttention (queries divided by sqrt(head_dim) before q @ k, the keys transposed once in attend, masked_fill_(mask, -inf) with a 0/1 "blocked" mask, nn.Softmax(-1)); the encoder's mask is lib/io.py's load_adj_mask (ByteTensor(adj <= 0.01): True where two sensors are not neighbours), registered as a buffer; a HeadAttendedAttention variant mixes the heads by a softmax over a per-query Linear(model_dim, heads) score
# why: correct: the mask is True on the pairs to block and masked_fill_ fills exactly those with -inf (the kernel adjacency is 1 on the diagonal, so no row is fully blocked); the queries are pre-divided by sqrt(head_dim), so the product needs no further scale; the keys are transposed once, (heads, head_dim, num), for query @ key; the second softmax in HeadAttendedAttention is meant to run over the heads (fc_q_head / fc_c_head output one score per head), not over keys
# looks-like: ATT001, ATT002, ATT003, ATT004, ATT005, ATT007
# source: https://github.com/shawnwan47/ST_Attention https://github.com/shawnwan47/ST_Attention/commit/082a811cbc29d7b796b91d8e00682c9b9f40cb0c models/transformer.py
import torch
import torch.nn as nn

from lib.io import load_adj_mask
from modules.attn import MultiHeadedAttention, HeadAttendedAttention


class TransformerLayer(nn.Module):
    def __init__(self, model_dim, heads, dropout, head_attended=False):
        super().__init__()
        attention = HeadAttendedAttention if head_attended else MultiHeadedAttention
        self.attn = attention(model_dim, heads, dropout)
        self.drop = nn.Dropout(dropout)
        self.mlp = nn.Sequential(
            nn.Linear(model_dim, model_dim * 2), nn.ReLU(), nn.Linear(model_dim * 2, model_dim)
        )
        self.ln = nn.LayerNorm(model_dim)

    def forward(self, query, bank=None, mask=None):
        bank = query if bank is None else bank
        context, attn = self.attn(query, bank, mask)
        hidden = query + self.drop(context)
        return self.ln(hidden + self.mlp(hidden)), attn


class TransformerEncoder(nn.Module):
    def __init__(self, model_dim, num_layers, heads, dropout, mask=None, head_attended=False):
        super().__init__()
        self.layers = nn.ModuleList([
            TransformerLayer(model_dim, heads, dropout, head_attended)
            for _ in range(num_layers)
        ])
        self.register_buffer('mask', mask)

    def forward(self, x):
        attns = []
        for layer in self.layers:
            x, attn = layer(x, mask=self.mask)
            attns.append(attn)
        return x, torch.stack(attns, 1)


class STransformer(nn.Module):
    def __init__(self, embedding, model_dim, out_dim, num_layers, heads, dropout, mask=None):
        super().__init__()
        self.embedding = embedding
        self.encoder = TransformerEncoder(model_dim, num_layers, heads, dropout, mask)
        self.decoder = nn.Linear(model_dim, out_dim)

    def forward(self, data, time, weekday):
        # data: batch x history x num_nodes -> one token per sensor
        hidden = self.embedding(data, time, weekday)
        hidden, attn = self.encoder(hidden)
        return self.decoder(hidden), attn


def build_stransformer(config, embedding):
    mask = load_adj_mask(config.dataset) if config.adj_mask else None
    return STransformer(
        embedding=embedding,
        model_dim=config.model_dim,
        out_dim=config.horizon,
        num_layers=config.num_layers,
        heads=config.heads,
        dropout=config.dropout,
        mask=mask,
    )
