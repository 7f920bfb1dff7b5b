# case: scale-restormer-channel-temperature
# modelled-on: swz30/Restormer https://github.com/swz30/Restormer/blob/main/basicsr/models/archs/restormer_arch.py
# label: correct
# pattern: Restormer's MDTA "transposed" attention: q, k, v are (B, head, C, H*W); q and k are L2-normalised over pixels and q @ k^T builds a C x C channel attention scaled by a learned temperature
# why: attention over channels is the design; the normalisation plus a learned temperature replaces 1/sqrt(d)
# looks-like: ATT003, ATT005
import torch
import torch.nn as nn
import torch.nn.functional as F
from einops import rearrange


class Attention(nn.Module):
    def __init__(self, dim: int, num_heads: int, bias: bool):
        super().__init__()
        self.num_heads = num_heads
        self.temperature = nn.Parameter(torch.ones(num_heads, 1, 1))
        self.qkv = nn.Conv2d(dim, dim * 3, kernel_size=1, bias=bias)
        self.qkv_dwconv = nn.Conv2d(dim * 3, dim * 3, kernel_size=3, stride=1, padding=1, groups=dim * 3, bias=bias)
        self.project_out = nn.Conv2d(dim, dim, kernel_size=1, bias=bias)

    def forward(self, x):
        b, c, h, w = x.shape
        qkv = self.qkv_dwconv(self.qkv(x))
        q, k, v = qkv.chunk(3, dim=1)
        q = rearrange(q, "b (head c) h w -> b head c (h w)", head=self.num_heads)
        k = rearrange(k, "b (head c) h w -> b head c (h w)", head=self.num_heads)
        v = rearrange(v, "b (head c) h w -> b head c (h w)", head=self.num_heads)

        q = F.normalize(q, dim=-1)
        k = F.normalize(k, dim=-1)
        attn = (q @ k.transpose(-2, -1)) * self.temperature  # (b, head, c, c)
        attn = attn.softmax(dim=-1)

        out = attn @ v  # (b, head, c, h*w)
        out = rearrange(out, "b head c (h w) -> b (head c) h w", head=self.num_heads, h=h, w=w)
        return self.project_out(out)
