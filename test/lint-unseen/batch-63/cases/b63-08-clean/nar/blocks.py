from torch import nn

from .attention import GQAttention


class DecoderBlock(nn.Module):
    def __init__(self, d_model: int, n_heads: int, d_ff: int, causal: bool = True, dropout: float = 0.0):
        super().__init__()
        self.causal = causal
        self.norm_self = nn.LayerNorm(d_model)
        self.norm_cross = nn.LayerNorm(d_model)
        self.norm_ff = nn.LayerNorm(d_model)
        self.self_attn = GQAttention(d_model, n_heads, dropout=dropout)
        self.cross_attn = GQAttention(d_model, n_heads, dropout=dropout)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.GELU(), nn.Linear(d_ff, d_model))

    def forward(self, x, memory, need_weights: bool = False):
        h = self.norm_self(x)
        a, _ = self.self_attn(h, h, h, is_causal=self.causal, need_weights=need_weights)
        x = x + a
        h = self.norm_cross(x)
        c, _ = self.cross_attn(h, memory, memory, is_causal=False, need_weights=need_weights)
        x = x + c
        return x + self.ff(self.norm_ff(x))
