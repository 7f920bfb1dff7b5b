import math
import torch
import torch.nn as nn


class LearnedScaleAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        head_dim = dim // heads
        self.log_scale = nn.Parameter(torch.full((heads, 1, 1), -0.5 * math.log(head_dim)))
        self.qkv = nn.Linear(dim, 3 * dim, bias=False)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, C // self.heads).permute(2, 0, 3, 1, 4)
        logits = torch.einsum("bhnd,bhmd->bhnm", q, k) * self.log_scale.exp()
        attn = logits.softmax(dim=-1)
        return torch.einsum("bhnm,bhmd->bhnd", attn, v).transpose(1, 2).reshape(B, N, C)
