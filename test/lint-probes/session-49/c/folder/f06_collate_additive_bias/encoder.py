import torch
import torch.nn as nn


class EncoderLayer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, key_bias):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-1, -2) / (D // self.h) ** 0.5
        s = s + key_bias[:, None, None, :]
        w = s.softmax(-1)
        return (w @ v).transpose(1, 2).reshape(B, T, D)


class Encoder(nn.Module):
    def __init__(self, vocab, d=128, h=4, n=2):
        super().__init__()
        self.emb = nn.Embedding(vocab, d)
        self.layers = nn.ModuleList(EncoderLayer(d, h) for _ in range(n))

    def forward(self, input_ids, key_bias):
        x = self.emb(input_ids)
        for layer in self.layers:
            x = x + layer(x, key_bias)
        return x
