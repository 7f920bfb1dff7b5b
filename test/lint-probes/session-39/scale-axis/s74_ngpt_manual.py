import math
import torch
import torch.nn as nn


class NormalizedAttentionManual(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.qkv = nn.Linear(n_embd, 3 * n_embd, bias=False)

    @staticmethod
    def unit(x, eps=1e-6):
        return x / (x.norm(dim=-1, keepdim=True) + eps)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_head, self.head_dim).permute(2, 0, 3, 1, 4)
        q, k = self.unit(q), self.unit(k)
        att = (q @ k.transpose(-2, -1)) * math.sqrt(self.head_dim)
        return (att.softmax(-1) @ v).transpose(1, 2).reshape(B, T, C)
