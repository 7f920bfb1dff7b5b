# label: buggy
# why: masks.padding_mask returns True on padding, and the model hides the positions where the mask is 0: real tokens are hidden, padding is attended
import math

import torch
import torch.nn as nn

from masks import lengths, padding_mask

PAD = 0


class Attention(nn.Module):
    def __init__(self, d=32, heads=4):
        super().__init__()
        self.heads, self.hd = heads, d // heads
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)

    def forward(self, x, mask):
        B, T, D = x.shape
        q = self.q(x).view(B, T, self.heads, self.hd).transpose(1, 2)
        k = self.k(x).view(B, T, self.heads, self.hd).transpose(1, 2)
        v = self.v(x).view(B, T, self.heads, self.hd).transpose(1, 2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.hd)
        scores = scores.masked_fill(mask[:, None, None, :] == 0, -1e9)  # expect: ATT002
        probs = torch.softmax(scores, dim=-1)
        return torch.matmul(probs, v).transpose(1, 2).reshape(B, T, D)


if __name__ == "__main__":
    torch.manual_seed(37)
    ids = torch.tensor([[4, 9, 13, 2, PAD, PAD], [7, 7, 21, 30, 2, PAD], [5, 2, PAD, PAD, PAD, PAD]])
    emb = nn.Embedding(40, 32, padding_idx=PAD)
    attn = Attention()
    with torch.no_grad():
        h = attn(emb(ids), padding_mask(ids, PAD))
    pooled = h.sum(1) / lengths(ids, PAD)[:, None]
    print(pooled.shape)
