import torch
import torch.nn as nn


class GatedHeads(nn.Module):
    """A learned per-head gate in [0, 1] on each head's weights: the same as gating that head's output."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)
        self.head_gate = nn.Parameter(torch.zeros(1, heads, 1, 1))

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1) * self.scale).softmax(dim=-1)
        attn = attn * torch.sigmoid(self.head_gate)
        return (attn @ v).transpose(1, 2).reshape(B, N, D)
