import torch.nn as nn

from model.attention import MultiHeadAttention
from model.utils import get_src_pad_mask


class EncoderLayer(nn.Module):
    def __init__(self, d_model=512, num_heads=8, d_ff=2048, drop_prob=0.1):
        super().__init__()
        self.mha = MultiHeadAttention(d_model=d_model, d_k=d_model // num_heads, d_v=d_model // num_heads, num_heads=num_heads, drop_prob=drop_prob)
        self.norm1 = nn.LayerNorm(d_model)
        self.ff = nn.Sequential(nn.Linear(d_model, d_ff), nn.ReLU(), nn.Linear(d_ff, d_model))
        self.norm2 = nn.LayerNorm(d_model)

    def forward(self, x, mask):
        x = self.norm1(x + self.mha(x, x, x, mask))
        return self.norm2(x + self.ff(x))


class Encoder(nn.Module):
    def __init__(self, vocab, d_model=512, num_layers=6, pad_idx=0):
        super().__init__()
        self.emb = nn.Embedding(vocab, d_model, padding_idx=pad_idx)
        self.layers = nn.ModuleList([EncoderLayer(d_model) for _ in range(num_layers)])
        self.pad_idx = pad_idx

    def forward(self, src):
        mask = get_src_pad_mask(src, self.pad_idx)
        x = self.emb(src)
        for layer in self.layers:
            x = layer(x, mask)
        return x
