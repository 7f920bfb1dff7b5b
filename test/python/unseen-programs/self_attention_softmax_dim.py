# label: buggy
# why: single-head self-attention normalises the query axis (dim=1 of [B, T, T]) instead of the keys
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class SelfAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.query = nn.Linear(dim, dim)
        self.key = nn.Linear(dim, dim)
        self.value = nn.Linear(dim, dim)

    def forward(self, x):
        # x: [batch, seq, dim]
        q = self.query(x)
        k = self.key(x)
        v = self.value(x)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(x.size(-1))
        weights = F.softmax(scores, dim=1)  # expect: ATT001
        return torch.bmm(weights, v)


class Classifier(nn.Module):
    def __init__(self, vocab, dim, classes):
        super().__init__()
        self.embed = nn.Embedding(vocab, dim)
        self.attn = SelfAttention(dim)
        self.head = nn.Linear(dim, classes)

    def forward(self, ids):
        h = self.attn(self.embed(ids))
        return self.head(h.mean(dim=1))


if __name__ == "__main__":
    torch.manual_seed(0)
    model = Classifier(vocab=50, dim=32, classes=3)
    ids = torch.randint(1, 50, (4, 10))
    logits = model(ids)
    print("logits", tuple(logits.shape))
