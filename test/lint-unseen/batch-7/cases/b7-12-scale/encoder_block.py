import torch.nn as nn

from att_blocks import MultiHeadAtt


class FeedForward(nn.Module):
    def __init__(self, emb_dim):
        super().__init__()
        self.linear = nn.Linear(emb_dim, 4 * emb_dim)
        self.proj = nn.Linear(4 * emb_dim, emb_dim)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x):
        return self.dropout(self.proj(nn.GELU()(self.linear(x))))


class EncoderBlock(nn.Module):
    def __init__(self, emb_dim=768, n_heads=12):
        super().__init__()
        head_size = emb_dim // n_heads
        self.norm1 = nn.LayerNorm(emb_dim)
        self.multi_head_att = MultiHeadAtt(emb_dim, head_size, n_heads)
        self.norm2 = nn.LayerNorm(emb_dim)
        self.ff = FeedForward(emb_dim)

    def forward(self, x):
        x = x + self.multi_head_att(self.norm1(x))
        return x + self.ff(self.norm2(x))
