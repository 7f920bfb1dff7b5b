# label: correct
# why: RoBERTa-style ids where the pad id is 1 (and 0 is <s>); the keep mask is ids != 1 and masked_fill hides where it is False
import math

import torch
import torch.nn as nn

BOS, PAD, EOS = 0, 1, 2


class Encoder(nn.Module):
    def __init__(self, vocab=300, d=48, heads=4):
        super().__init__()
        self.heads, self.hd = heads, d // heads
        self.embed = nn.Embedding(vocab, d, padding_idx=PAD)
        self.qkv = nn.Linear(d, 3 * d)
        self.cls_head = nn.Linear(d, 2)

    def forward(self, ids):
        x = self.embed(ids)
        B, T, D = x.shape
        keep = ids != PAD  # [B, T]
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.hd)
        scores = scores.masked_fill(~keep[:, None, None, :], float("-inf"))
        probs = scores.softmax(-1)
        h = torch.matmul(probs, v).transpose(1, 2).reshape(B, T, D)
        return self.cls_head(h[:, 0])


if __name__ == "__main__":
    torch.manual_seed(33)
    ids = torch.tensor([
        [BOS, 713, 16, 10, 2, EOS, PAD, PAD],
        [BOS, 100, 657, 24, 8, 51, 9, EOS],
        [BOS, 44, EOS, PAD, PAD, PAD, PAD, PAD],
    ]) % 300
    model = Encoder()
    print(model(ids).softmax(-1))
