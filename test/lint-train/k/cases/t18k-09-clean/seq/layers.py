import torch.nn as nn

from . import ops


class EncoderLayer(nn.Module):
    def __init__(self, d_model, d_ff, n_heads, dropout):
        super().__init__()
        # [!] caution: nn.MultiheadAttention would want the pad mask the other way round (pad = True)
        # self.slf_attn = nn.MultiheadAttention(d_model, n_heads, dropout=dropout)
        self.slf_attn = ops.MultiHeadAttention(d_model, n_heads, dropout)
        self.ln1 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.ln2 = nn.LayerNorm(d_model)

    def forward(self, x, mask):
        x = self.ln1(x + self.slf_attn(x, x, x, mask)[0])
        return self.ln2(x + self.ffn(x))


class DecoderLayer(nn.Module):
    def __init__(self, d_model, d_ff, n_heads, dropout):
        super().__init__()
        self.slf_attn = ops.MultiHeadAttention(d_model, n_heads, dropout)
        self.enc_attn = ops.MultiHeadAttention(d_model, n_heads, dropout)
        self.ln1 = nn.LayerNorm(d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.ln3 = nn.LayerNorm(d_model)
        self.ffn = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))

    def forward(self, enc_out, x, enc_mask, dec_mask):
        x = self.ln1(x + self.slf_attn(x, x, x, dec_mask)[0])
        out, w = self.enc_attn(x, enc_out, enc_out, enc_mask)
        x = self.ln2(x + out)
        return self.ln3(x + self.ffn(x)), w
