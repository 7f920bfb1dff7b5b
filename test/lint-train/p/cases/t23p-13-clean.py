# case: t23p-13-clean
# modelled-on: Cheol-Will/tabular-perceiver https://github.com/Cheol-Will/tabular-perceiver/commit/16a238b743a137d450001f9d8d4ef38dbf6d28d0
# label: correct
# class: clean
# pattern: a Perceiver for tabular data (one token per column, learnt latents): a module-level attend(query, key, value) helper unpacks head_dim from query.shape, computes F.softmax(torch.einsum("bhqd,bhkd->bhqk", q, k) / head_dim ** 0.5, dim=-1) and an einsum with the values; the attention module reshapes to (B, N, H, head_dim).transpose(1, 2) before calling it and is used both as self-attention over latents and as cross-attention from latents to column tokens
# why: correct: the einsum "bhqd,bhkd->bhqk" contracts the feature axis of q and k, so no explicit key transpose is needed; head_dim read from the last axis of the per-head query is d_k, and the division happens before the softmax; the softmax is over the k axis (the last one of bhqk); there is nothing to mask (every row has all its columns)
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/Cheol-Will/tabular-perceiver https://github.com/Cheol-Will/tabular-perceiver/commit/16a238b743a137d450001f9d8d4ef38dbf6d28d0 models/tab_perceiver.py
import torch
import torch.nn as nn
import torch.nn.functional as F


def attend(query, key, value, dropout_prob=0.0, train=True):
    _, _, _, head_dim = query.shape
    weights = F.softmax(torch.einsum("bhqd,bhkd->bhqk", query, key) / (head_dim**0.5), dim=-1)
    weights = F.dropout(weights, p=dropout_prob, training=train)
    return torch.einsum("bhqk,bhkd->bhqd", weights, value)  # (B, H, q_len, head_dim)


class Attention(nn.Module):
    """Self- or cross-attention; keys and values default to the queries."""

    def __init__(self, hidden_dim, num_heads, input_qdim=None, input_kdim=None, dropout_prob=0.0):
        super().__init__()
        input_qdim = input_qdim or hidden_dim
        input_kdim = input_kdim or input_qdim
        self.num_heads = num_heads
        self.head_dim = hidden_dim // num_heads
        self.dropout_prob = dropout_prob
        self.q = nn.Linear(input_qdim, hidden_dim)
        self.k = nn.Linear(input_kdim, hidden_dim)
        self.v = nn.Linear(input_kdim, hidden_dim)
        self.proj = nn.Linear(hidden_dim, hidden_dim)

    def forward(self, query, key=None, value=None):
        if key is None:
            key = value = query
        elif value is None:
            value = key
        b, n, _ = query.shape
        h, d = self.num_heads, self.head_dim
        q = self.q(query).reshape(b, -1, h, d).transpose(1, 2)
        k = self.k(key).reshape(b, -1, h, d).transpose(1, 2)
        v = self.v(value).reshape(b, -1, h, d).transpose(1, 2)
        out = attend(q, k, v, self.dropout_prob, self.training)
        return self.proj(out.permute(0, 2, 1, 3).reshape(b, n, -1))


class TabPerceiverCore(nn.Module):
    def __init__(self, n_columns, hidden_dim=64, num_heads=4, num_latents=16, num_layers=2, num_classes=2):
        super().__init__()
        self.latents = nn.Parameter(torch.randn(1, num_latents, hidden_dim) * 0.02)
        self.col_emb = nn.Parameter(torch.randn(1, n_columns, hidden_dim) * 0.02)
        self.encode = Attention(hidden_dim, num_heads)
        self.q_norm = nn.LayerNorm(hidden_dim)
        self.kv_norm = nn.LayerNorm(hidden_dim)
        self.blocks = nn.ModuleList([Attention(hidden_dim, num_heads) for _ in range(num_layers)])
        self.norms = nn.ModuleList([nn.LayerNorm(hidden_dim) for _ in range(num_layers)])
        self.decode = Attention(hidden_dim, num_heads)
        self.query = nn.Parameter(torch.randn(1, 1, hidden_dim) * 0.02)
        self.head = nn.Linear(hidden_dim, num_classes)

    def forward(self, x):
        # x: (B, n_columns, hidden_dim), one embedded token per column
        x = x + self.col_emb
        lat = self.latents.expand(x.size(0), -1, -1)
        lat = lat + self.encode(self.q_norm(lat), self.kv_norm(x))  # latents read the columns
        for block, norm in zip(self.blocks, self.norms):
            lat = lat + block(norm(lat))
        out = self.decode(self.query.expand(x.size(0), -1, -1), lat)
        return self.head(out.squeeze(1))
