# case: scale-vitcifar-feats-sqrt
# modelled-on: omihub777/ViT-CIFAR https://github.com/omihub777/ViT-CIFAR/pull/11
# label: buggy
# pattern: MultiHeadSelfAttention stores self.sqrt_d = self.feats ** 0.5 (model width) and divides per-head einsum scores by it
# why: the per-head dimension is feats // head; with 384 features and 12 heads the divisor is sqrt(384) instead of sqrt(32)
import torch
import torch.nn as nn


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, feats: int, head: int = 8, dropout: float = 0.0):
        super().__init__()
        self.head = head
        self.feats = feats
        self.sqrt_d = self.feats ** 0.5
        self.q = nn.Linear(feats, feats)
        self.k = nn.Linear(feats, feats)
        self.v = nn.Linear(feats, feats)
        self.o = nn.Linear(feats, feats)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        b, n, f = x.size()
        q = self.q(x).view(b, n, self.head, self.feats // self.head).transpose(1, 2)
        k = self.k(x).view(b, n, self.head, self.feats // self.head).transpose(1, 2)
        v = self.v(x).view(b, n, self.head, self.feats // self.head).transpose(1, 2)
        # score: (b, h, n, n)
        score = torch.softmax(torch.einsum("bhif, bhjf->bhij", q, k) / self.sqrt_d, dim=-1)  # expect: ATT004
        attn = torch.einsum("bhij, bhjf->bihf", score, v)  # (b, n, h, f//h)
        return self.dropout(self.o(attn.flatten(2)))
