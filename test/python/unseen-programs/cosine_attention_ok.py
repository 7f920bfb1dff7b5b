# label: correct
# why: Swin-v2-style cosine attention: q and k are L2-normalised and multiplied by a learned logit scale (clamped), by design not 1/sqrt(d)
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CosineAttention(nn.Module):
    def __init__(self, dim=48, num_heads=3):
        super().__init__()
        self.num_heads = num_heads
        self.logit_scale = nn.Parameter(torch.log(10 * torch.ones(num_heads, 1, 1)))
        self.qkv = nn.Linear(dim, dim * 3)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = F.normalize(q, dim=-1) @ F.normalize(k, dim=-1).transpose(-2, -1)
        logit_scale = torch.clamp(self.logit_scale, max=math.log(1.0 / 0.01)).exp()
        attn = attn * logit_scale
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)


if __name__ == "__main__":
    torch.manual_seed(48)
    window = torch.randn(4, 16, 48)  # 4 windows of 4x4 patches
    print(CosineAttention()(window).shape)
