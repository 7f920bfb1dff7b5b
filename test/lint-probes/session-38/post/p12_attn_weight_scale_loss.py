import torch
import torch.nn as nn


class AlignedAttention(nn.Module):
    def __init__(self, dim, heads, align_scale=0.1):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.align_scale = align_scale
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, target_align):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1) * self.scale).softmax(-1)
        out = (attn @ v).transpose(1, 2).reshape(B, N, C)
        align_loss = ((attn.mean(1) - target_align) ** 2).mean() * self.align_scale
        return out, align_loss
