import torch.nn as nn

from attention import MultiHeadAttention


class DecoderLayer(nn.Module):
    def __init__(self, d_model, n_heads, d_ff, attn_dropout, ff_dropout, eps=1e-6):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, n_heads, attn_dropout)
        self.cross_attn = MultiHeadAttention(d_model, n_heads, attn_dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Dropout(ff_dropout), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList(nn.LayerNorm(d_model, eps=eps) for _ in range(3))

    def forward(self, x, memory, encoder_mask, decoder_mask):
        x = self.norms[0](x + self.self_attn(x, x, x, decoder_mask))
        x = self.norms[1](x + self.cross_attn(x, memory, memory, encoder_mask))
        return self.norms[2](x + self.ff(x))
