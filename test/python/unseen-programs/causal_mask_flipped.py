# label: buggy
# why: the "causal" mask keeps the upper triangle: every position attends itself and the future, never the past
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DecoderBlock(nn.Module):
    def __init__(self, dim=32, heads=2, max_len=64):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.proj = nn.Linear(dim, dim)
        self.register_buffer("mask", torch.triu(torch.ones(max_len, max_len)))

    def forward(self, x):
        B, T, C = x.shape
        hd = C // self.heads
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, hd).permute(2, 0, 3, 1, 4)
        att = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(hd)
        att = att.masked_fill(self.mask[:T, :T] == 0, float("-inf"))  # expect: ATT002
        att = F.softmax(att, dim=-1)
        out = torch.matmul(att, v).transpose(1, 2).reshape(B, T, C)
        return self.proj(out)


if __name__ == "__main__":
    torch.manual_seed(17)
    block = DecoderBlock()
    tokens = torch.randint(0, 100, (2, 10))
    emb = nn.Embedding(100, 32)
    out = block(emb(tokens))
    print(out.shape)
