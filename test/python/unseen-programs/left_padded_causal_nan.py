# label: buggy
# why: left-padded batch: the pad query rows have every key masked with -inf (causal and padding), so their softmax is NaN and it reaches the next layer
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

PAD = 0


class Block(nn.Module):
    def __init__(self, d=32, h=4):
        super().__init__()
        self.h, self.hd = h, d // h
        self.qkv = nn.Linear(d, 3 * d)
        self.o = nn.Linear(d, d)
        self.ln = nn.LayerNorm(d)

    def forward(self, x, pad_mask):
        B, T, D = x.shape
        q, k, v = self.qkv(self.ln(x)).chunk(3, dim=-1)
        q, k, v = (t.view(B, T, self.h, self.hd).transpose(1, 2) for t in (q, k, v))
        causal = torch.ones(T, T, dtype=torch.bool).tril()
        allowed = causal[None, None] & ~pad_mask[:, None, None, :]
        s = q @ k.transpose(-1, -2) / math.sqrt(self.hd)
        s = s.masked_fill(~allowed, float("-inf"))
        p = F.softmax(s, dim=-1)  # expect: ATT007
        return x + self.o((p @ v).transpose(1, 2).reshape(B, T, D))


if __name__ == "__main__":
    torch.manual_seed(20)
    prompts = [[7, 3, 9], [4, 12, 5, 6, 2], [8]]
    width = max(map(len, prompts))
    ids = torch.tensor([[PAD] * (width - len(p)) + p for p in prompts])  # left padding for generation
    emb = nn.Embedding(16, 32, padding_idx=PAD)
    blocks = nn.ModuleList([Block(), Block()])
    x = emb(ids)
    for blk in blocks:
        x = blk(x, ids == PAD)
    next_logits = x[:, -1] @ emb.weight.t()
    print(next_logits.argmax(-1))
