# case: b7-12-scale
# modelled-on: FelipeMarra/vivit-pytorch https://github.com/FelipeMarra/vivit-pytorch/commit/b3889f910ed3135848f4de5dab77060d2d5aa5c3
# label: buggy
# class: real-bug
# pattern: a ViViT re-implementation with lecture-style attention: each AttHead projects the (B, S, E) tokens to head_size features with three bias-free linears, reads E from x.shape, scales the scores by E ** -0.5 and takes the softmax over the keys; MultiHeadAtt concatenates n_heads heads; the encoder block in another file builds it with head_size = emb_dim // n_heads
# why: buggy: E is the width of the input tokens (emb_dim), not of the per-head queries and keys (head_size = emb_dim // n_heads), so the logits are scaled by 1/sqrt(emb_dim) instead of 1/sqrt(head_size), sqrt(n_heads) too small; the fix commit ("vectorized multihead self att") scales by head_size ** -0.5
# source: https://github.com/FelipeMarra/vivit-pytorch https://github.com/FelipeMarra/vivit-pytorch/commit/b3889f910ed3135848f4de5dab77060d2d5aa5c3 src/vivit/att_blocks.py
import torch
import torch.nn as nn
from torch.nn import functional as F


class AttHead(nn.Module):
    def __init__(self, emb_dim, head_size):
        super().__init__()
        self.wq = nn.Linear(emb_dim, head_size, bias=False)
        self.wk = nn.Linear(emb_dim, head_size, bias=False)
        self.wv = nn.Linear(emb_dim, head_size, bias=False)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _, _, E = x.shape  # (B, S, E)
        q = self.wq(x)  # (B, S, head_size)
        k = self.wk(x)
        v = self.wv(x)
        att = q @ k.transpose(-2, -1)  # (B, S, S)
        att = att * E**-0.5  # expect: ATT004
        att = F.softmax(att, dim=-1)
        att = self.dropout(att)
        return att @ v  # (B, S, head_size)


class MultiHeadAtt(nn.Module):
    def __init__(self, emb_dim, head_size, n_heads):
        super().__init__()
        self.heads = nn.ModuleList([AttHead(emb_dim, head_size) for _ in range(n_heads)])
        self.proj = nn.Linear(head_size * n_heads, emb_dim)

    def forward(self, x):
        # concatenated on the feature axis: n_heads * head_size = emb_dim
        return self.proj(torch.cat([h(x) for h in self.heads], dim=-1))
