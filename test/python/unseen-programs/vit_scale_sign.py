# label: buggy
# why: scale = head_dim ** 0.5 (positive exponent): the scores are multiplied by sqrt(d_k) instead of divided
import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, num_heads=8, qkv_bias=False):
        super().__init__()
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = head_dim ** 0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1)) * self.scale  # expect: ATT004
        attn = attn.softmax(dim=-1)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        return self.proj(x)


class PatchEmbed(nn.Module):
    def __init__(self, img=32, patch=8, dim=64):
        super().__init__()
        self.proj = nn.Conv2d(3, dim, kernel_size=patch, stride=patch)

    def forward(self, x):
        return self.proj(x).flatten(2).transpose(1, 2)


if __name__ == "__main__":
    torch.manual_seed(32)
    images = torch.randn(2, 3, 32, 32)
    tokens = PatchEmbed()(images)
    cls = torch.zeros(2, 1, 64)
    tokens = torch.cat([cls, tokens], dim=1)
    out = Attention(64, num_heads=4)(tokens)
    print(out.shape)
