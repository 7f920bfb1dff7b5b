import torch
import torch.nn.functional as F
from torch import nn


class Encoder(nn.Module):
    def __init__(self, vocab, d=64, h=4):
        super().__init__()
        self.h = h
        self.emb = nn.Embedding(vocab, d)
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, src, src_padding):
        x = self.emb(src)
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        attend = src_padding.logical_not()[:, None, None, :]
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=attend)
        return y.transpose(1, 2).reshape(B, T, C)
