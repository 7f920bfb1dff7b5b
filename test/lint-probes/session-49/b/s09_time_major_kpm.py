import torch
from torch import nn


class TimeMajorEncoder(nn.Module):
    def __init__(self, vocab, d=128, h=4, pad=1):
        super().__init__()
        self.pad = pad
        self.emb = nn.Embedding(vocab, d, padding_idx=pad)
        self.attn = nn.MultiheadAttention(d, h)  # (S, B, E)

    def forward(self, src):  # src: (S, B)
        x = self.emb(src)
        kpm = src.eq(self.pad).transpose(0, 1)  # (B, S), True at padding
        y, _ = self.attn(x, x, x, key_padding_mask=kpm)
        return y
