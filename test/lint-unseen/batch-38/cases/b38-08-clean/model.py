import torch
from torch import nn

from attention import GroupedSelfAttention


def rope_table(head_dim, max_len, theta=500000.0):
    inv = 1.0 / (theta ** (torch.arange(0, head_dim, 2).float() / head_dim))
    angles = torch.outer(torch.arange(max_len), inv)
    return torch.polar(torch.ones_like(angles), angles)


class Block(nn.Module):
    def __init__(self, d_model, n_heads, n_kv_heads, d_ff):
        super().__init__()
        self.n1 = nn.RMSNorm(d_model)
        self.attn = GroupedSelfAttention(d_model, n_heads, n_kv_heads)
        self.n2 = nn.RMSNorm(d_model)
        self.mlp = nn.Sequential(nn.Linear(d_model, d_ff), nn.SiLU(), nn.Linear(d_ff, d_model))

    def forward(self, x, freqs, past=None):
        attended, kv = self.attn(self.n1(x), freqs, past=past)
        x = x + attended
        return x + self.mlp(self.n2(x)), kv


class TinyDecoder(nn.Module):
    def __init__(self, vocab=32000, d_model=512, n_heads=8, n_kv_heads=2, n_layers=6, d_ff=1408, context=1024):
        super().__init__()
        self.context = context
        self.tok = nn.Embedding(vocab, d_model)
        self.blocks = nn.ModuleList(Block(d_model, n_heads, n_kv_heads, d_ff) for _ in range(n_layers))
        self.norm = nn.RMSNorm(d_model)
        self.head = nn.Linear(d_model, vocab, bias=False)
        self.register_buffer('freqs', rope_table(d_model // n_heads, context), persistent=False)

    def forward(self, ids, past=None, use_cache=False):
        offset = past[0][0].shape[2] if past is not None else 0
        freqs = self.freqs[offset: offset + ids.shape[1]]
        x = self.tok(ids)
        new_past = []
        for i, block in enumerate(self.blocks):
            x, kv = block(x, freqs, past=past[i] if past is not None else None)
            if use_cache:
                new_past.append(kv)
        return self.head(self.norm(x)), (new_past if use_cache else None)
