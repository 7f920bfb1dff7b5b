import torch
import torch.nn as nn


class HeadsLastAttention(nn.Module):
    """Keeps the heads as the trailing axis throughout, as some point-cloud codebases do."""

    def __init__(self, dim, heads=4):
        super().__init__()
        self.heads = heads
        self.dh = dim // heads
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.proj = nn.Linear(dim, dim)

    def forward(self, x):
        b, n, _ = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(b, n, self.dh, self.heads)
        k = k.view(b, n, self.dh, self.heads)
        v = v.view(b, n, self.dh, self.heads)
        sim = torch.einsum("b i d h, b j d h -> b i j h", q, k) * self.dh ** -0.5
        attn = sim.softmax(dim=1)
        out = torch.einsum("b i j h, b j d h -> b i d h", attn, v)
        return self.proj(out.reshape(b, n, -1))
