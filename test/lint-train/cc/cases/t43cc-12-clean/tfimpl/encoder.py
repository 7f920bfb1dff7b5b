import torch.nn.functional as F
from torch import nn

from .attention import MHSA


class EncoderLayer(nn.Module):
    def __init__(self, d: int = 512, h: int = 8, dropout: float = 0.1):
        super().__init__()
        self.mhsa = MHSA(d, h)
        self.norm1 = nn.LayerNorm(d)
        self.ff1 = nn.Linear(d, d * 4)
        self.ff2 = nn.Linear(d * 4, d)
        self.norm2 = nn.LayerNorm(d)
        self.attn_dropout = nn.Dropout(dropout)
        self.resid_dropout = nn.Dropout(dropout)

    def forward(self, x, self_mask=None):
        x = self.norm1(x + self.attn_dropout(self.mhsa(x, x, x, mask=self_mask)))
        return self.norm2(x + self.resid_dropout(self.ff2(F.relu(self.ff1(x)))))


class Encoder(nn.Module):
    def __init__(self, vocab_size: int = 2**13, n: int = 6, d: int = 512, h: int = 8):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, d)
        self.layers = nn.ModuleList([EncoderLayer(d, h) for _ in range(n)])

    def forward(self, x, self_mask=None):
        x = self.embed(x)
        for layer in self.layers:
            x = layer(x, self_mask=self_mask)
        return x


def encode_batch(encoder, batch):
    enc_x, _, _, enc_mask, _ = batch
    return encoder(enc_x, enc_mask)
