import torch
import torch.nn as nn


class Attn(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        attn = (q @ k.transpose(-2, -1) * self.scale).softmax(-1)
        out = (attn @ v).transpose(1, 2).reshape(B, N, C)
        # attention map for visualisation, stretched to [0, 255]
        vis_scale = 255.0 / attn.amax(dim=-1, keepdim=True)
        heatmap = (attn * vis_scale).byte()
        return out, heatmap
