# case: t32y-01-clean
# modelled-on: priyangkarghosh/tllm https://github.com/priyangkarghosh/tllm/commit/23637ebe748d2e653437ce7f04eff08ad5451c75
# label: correct
# class: clean
# pattern: a tiny from-scratch GPT's causal self-attention: fused qkv Linear split three ways, heads (B, n_head, T, hd) with hd = C // n_head, scores (q @ k^T) * (1 / sqrt(hd)), a registered lower-triangular ones buffer sliced to [:T, :T] and applied with masked_fill(buffer == 0, -inf), softmax over dim=-1
# why: correct: the tril buffer is 1 on allowed (past and current) keys, so == 0 selects the strictly future keys that get -inf; the scale is the per-head width; the softmax is over the keys; the diagonal is never masked, so no row is all -inf
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/priyangkarghosh/tllm https://github.com/priyangkarghosh/tllm/commit/23637ebe748d2e653437ce7f04eff08ad5451c75 src/model/attention.py
import math

import torch
import torch.nn as nn
from torch.nn import functional as F


class CausalAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        assert n_embd % n_head == 0
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.out = nn.Linear(n_embd, n_embd)
        self.n_head = n_head
        self.n_embd = n_embd
        self.register_buffer("tri", torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, C = x.size()
        hd = C // self.n_head
        q, k, v = self.qkv(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, hd).transpose(1, 2)
        k = k.view(B, T, self.n_head, hd).transpose(1, 2)
        v = v.view(B, T, self.n_head, hd).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(hd))
        att = att.masked_fill(self.tri[:, :, :T, :T] == 0, float('-inf'))
        att = F.softmax(att, dim=-1)
        y = (att @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.out(y)
