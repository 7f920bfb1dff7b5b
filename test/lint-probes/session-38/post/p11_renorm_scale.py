import torch
import torch.nn as nn


class TopKAttention(nn.Module):
    """Keep the top-k weights per row and renormalise them to sum to 1."""

    def __init__(self, dim, heads, topk=8):
        super().__init__()
        self.heads, self.topk = heads, topk
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1) * self.scale).softmax(-1)
        top, idx = attn.topk(self.topk, dim=-1)
        keep = torch.zeros_like(attn).scatter_(-1, idx, top)
        renorm_scale = 1.0 / keep.sum(-1, keepdim=True)
        attn = keep * renorm_scale
        return (attn @ v).transpose(1, 2).reshape(B, N, C)
