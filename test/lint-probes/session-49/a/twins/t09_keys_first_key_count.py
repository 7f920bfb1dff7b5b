# BUGGY TWIN of b05_pretransposed_keys_size_minus2.py: expect a finding
import math
import torch
import torch.nn as nn


class KeysFirstAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)

    def forward(self, x):
        B, S, D = x.shape
        h = self.heads
        q = self.to_q(x).view(B, S, h, D // h).permute(0, 2, 1, 3)
        k_t = self.to_k(x).view(B, S, h, D // h).permute(0, 2, 3, 1)
        v = self.to_v(x).view(B, S, h, D // h).permute(0, 2, 1, 3)
        d_head = k_t.size(-1)
        logits = torch.matmul(q, k_t) / math.sqrt(d_head)
        attn = torch.softmax(logits, dim=-1)
        return torch.matmul(attn, v).permute(0, 2, 1, 3).reshape(B, S, D)
