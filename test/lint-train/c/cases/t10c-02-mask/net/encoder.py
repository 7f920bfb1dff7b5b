import torch.nn as nn

from .attention import MultiHeadAttention


class EncoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, dropout):
        super().__init__()
        self.attn = MultiHeadAttention(n_heads, d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.drop = nn.Dropout(dropout)
        self.norm1 = nn.LayerNorm(d_model)
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x, pad_mask):
        # pad_mask keeps the padding tokens out of the attention
        h = self.norm1(x + self.drop(self.attn(x, x, x, pad_mask=pad_mask)))
        return self.norm2(h + self.drop(self.ff(h)))


class Encoder(nn.Module):
    def __init__(self, vocab, d_model, n_heads, d_ff, dropout, n_layers):
        super().__init__()
        self.embed = nn.Embedding(vocab, d_model)
        self.layers = nn.ModuleList([EncoderLayer(d_model, n_heads, d_ff, dropout) for _ in range(n_layers)])

    def forward(self, tokens, pad_mask):
        x = self.embed(tokens)
        for layer in self.layers:
            x = layer(x, pad_mask)
        return x
