import torch.nn as nn

from asr.attention import MultiHeadAttention


class DecoderLayer(nn.Module):
    def __init__(self, d_model: int, heads: int, d_ff: int, p_drop: float = 0.1):
        super().__init__()
        self.self_attn = MultiHeadAttention(d_model, heads)
        self.cross_attn = MultiHeadAttention(d_model, heads)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norms = nn.ModuleList([nn.LayerNorm(d_model) for _ in range(3)])
        self.drop = nn.Dropout(p_drop)

    def forward(self, x, memory, look_ahead_mask, memory_mask):
        x = self.norms[0](x)
        h, _ = self.self_attn(x, x, x, look_ahead_mask)
        x = self.norms[1](x + self.drop(h))
        h, _ = self.cross_attn(x, memory, memory, memory_mask)
        x = self.norms[2](x + self.drop(h))
        return x + self.drop(self.ff(x))
