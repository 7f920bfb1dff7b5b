import torch
import torch.nn as nn


class UpcastAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, L, D = x.shape
        q, k, v = self.qkv(x).reshape(B, L, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q.float() @ k.float().transpose(-1, -2)) * (1.0 / (k.size(-1) ** 0.5))
        attn = attn.softmax(dim=-1).to(v.dtype)
        return self.proj((attn @ v).transpose(1, 2).reshape(B, L, D))
