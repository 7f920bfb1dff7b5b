from torch import nn

from attention import MultiHeadSelfAttention


class PreNormBlock(nn.Module):
    def __init__(self, width, heads, ff_width):
        super().__init__()
        self.ln_attn = nn.LayerNorm(width)
        self.attn = MultiHeadSelfAttention(width, heads)
        self.ln_ff = nn.LayerNorm(width)
        self.ff = nn.Sequential(nn.Linear(width, ff_width), nn.ReLU(), nn.Linear(ff_width, width))

    def forward(self, x, mask=None):
        attended, _ = self.attn(self.ln_attn(x), mask=mask)
        x = x + attended
        return x + self.ff(self.ln_ff(x))
