from torch import nn

from tst.attention import MultiHeadAttention, ScaledDPAttention

ATTENTION = "multihead"  # "single" or "multihead"


class Encoder(nn.Module):
    def __init__(self, input_shape, embed_size, num_heads, ff_dim, dropout=0.0):
        super().__init__()
        self.embedding = nn.Linear(input_shape[-1], embed_size)
        if ATTENTION == "single":
            self.attention = ScaledDPAttention(embed_size)
        else:
            self.attention = MultiHeadAttention(embed_size, num_heads, dropout=0.0)
        self.linear1 = nn.Linear(embed_size, input_shape[-1])
        self.dropout1 = nn.Dropout(dropout)
        self.norm1 = nn.LayerNorm(input_shape[-1], eps=1e-6)
        self.ff = nn.Sequential(nn.Linear(input_shape[-1], ff_dim), nn.ReLU(), nn.Dropout(dropout), nn.Linear(ff_dim, input_shape[-1]))
        self.norm2 = nn.LayerNorm(input_shape[-1], eps=1e-6)

    def forward(self, src):
        x = self.embedding(src)
        x = self.attention(x) if ATTENTION == "single" else self.attention(x, x, x)
        x = self.norm1(self.dropout1(self.linear1(x)) + src)
        return self.norm2(x + self.ff(x))
