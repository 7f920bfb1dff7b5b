import torch
import torch.nn as nn
from constants import NEG_INF_HALF, PAD_ID


class Encoder(nn.Module):
    def __init__(self, vocab, d, h):
        super().__init__()
        self.h = h
        self.emb = nn.Embedding(vocab, d, padding_idx=PAD_ID)
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, ids):
        x = self.emb(ids)
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-1, -2) * (D // self.h) ** -0.5
        s = s.masked_fill((ids == PAD_ID)[:, None, None, :], NEG_INF_HALF)
        return (s.softmax(-1) @ v).transpose(1, 2).reshape(B, T, D)


model = Encoder(1000, 128, 4).half()
