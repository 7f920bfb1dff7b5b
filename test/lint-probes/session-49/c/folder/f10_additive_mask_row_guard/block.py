import torch
import torch.nn as nn
from masks import key_padding_bias, query_valid


class Block(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, lengths):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, D // self.h).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-1, -2) * (D // self.h) ** -0.5
        s = s + key_padding_bias(lengths, T, s.dtype)
        w = s.softmax(dim=-1)
        w = w * query_valid(lengths, T).to(w.dtype)  # zero the padded query rows
        return (w @ v).transpose(1, 2).reshape(B, T, D)
