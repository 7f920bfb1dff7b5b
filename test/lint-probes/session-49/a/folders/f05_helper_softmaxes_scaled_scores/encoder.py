import torch
import torch.nn as nn

from ops import masked_softmax


class EncoderAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.h = heads
        self.dk = dim // heads
        self.scale = self.dk ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.fc = nn.Linear(dim, dim)

    def forward(self, x, key_padding_mask=None):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, self.dk).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-1, -2)) * self.scale
        attn = masked_softmax(scores, key_padding_mask)
        return self.fc(torch.matmul(attn, v).transpose(1, 2).reshape(B, T, D))
