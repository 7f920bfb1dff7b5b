import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, pad_mask):
        b, n, d = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.heads, d // self.heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        sim = (q @ k.transpose(-2, -1)).float() * (d // self.heads) ** -0.5
        sim = sim.masked_fill(pad_mask[:, None, None, :], -1e9)
        attn = sim.softmax(dim=-1).type_as(v)
        return (attn @ v).transpose(1, 2).reshape(b, n, d)
