# case: scale-ngvideo-head-embd-c
# modelled-on: karpathy/ng-video-lecture https://github.com/karpathy/ng-video-lecture/pull/6
# label: buggy
# pattern: one attention Head of a multi-head block unpacks B, T, C = x.shape and scales by C ** -0.5, where C is n_embd, not head_size
# why: with n_embd 384 and 6 heads the scores are divided by sqrt(384) instead of sqrt(64), a softmax about 2.4x too flat
import torch
import torch.nn as nn
from torch.nn import functional as F

n_embd = 384
n_head = 6
block_size = 256
dropout = 0.2


class Head(nn.Module):
    """one head of self-attention"""

    def __init__(self, head_size: int):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)  # (B, T, hs)
        q = self.query(x)  # (B, T, hs)
        wei = q @ k.transpose(-2, -1) * C ** -0.5  # expect: ATT004
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        wei = self.dropout(wei)
        v = self.value(x)
        return wei @ v


class MultiHeadAttention(nn.Module):
    def __init__(self, num_heads: int, head_size: int):
        super().__init__()
        self.heads = nn.ModuleList([Head(head_size) for _ in range(num_heads)])
        self.proj = nn.Linear(n_embd, n_embd)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        out = torch.cat([h(x) for h in self.heads], dim=-1)
        return self.dropout(self.proj(out))


class Block(nn.Module):
    def __init__(self):
        super().__init__()
        head_size = n_embd // n_head
        self.sa = MultiHeadAttention(n_head, head_size)
        self.ln1 = nn.LayerNorm(n_embd)

    def forward(self, x):
        return x + self.sa(self.ln1(x))
