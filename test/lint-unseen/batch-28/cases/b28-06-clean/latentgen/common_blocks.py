import torch.nn as nn


class PreNormBlock(nn.Module):
    def __init__(self, width, heads, ff_dim=64, p_drop=0.1):
        super().__init__()
        self.attn = nn.MultiheadAttention(width, heads)
        self.norm_attn = nn.LayerNorm(width)
        self.dropout1 = nn.Dropout(p_drop)
        self.ff = nn.Sequential(
            nn.Linear(width, ff_dim),
            nn.Dropout(p_drop),
            nn.GELU(),
            nn.Linear(ff_dim, width),
        )
        self.norm_ff = nn.LayerNorm(width)
        self.dropout2 = nn.Dropout(p_drop)

    def forward(self, x, padding=None, causal=None):
        y = self.norm_attn(x)
        delta, _ = self.attn(query=y, key=y, value=y, key_padding_mask=padding, attn_mask=causal)
        x = x + self.dropout1(delta)
        x = x + self.dropout2(self.ff(self.norm_ff(x)))
        return x
