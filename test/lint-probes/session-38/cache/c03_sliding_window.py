import torch
import torch.nn as nn
import torch.nn.functional as F


class SlidingCache:
    def __init__(self, window):
        self.window = window
        self.k = None
        self.v = None

    def append(self, k, v):
        if self.k is None:
            self.k, self.v = k, v
        else:
            self.k = torch.cat([self.k, k], dim=2)[:, :, -self.window:]
            self.v = torch.cat([self.v, v], dim=2)[:, :, -self.window:]
        return self.k, self.v


class SWAttention(nn.Module):
    def __init__(self, dim, heads, window):
        super().__init__()
        self.heads, self.window = heads, window
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x, cache=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        if cache is not None:
            k, v = cache.append(k, v)
        S = k.shape[2]
        i = torch.arange(T, device=x.device)[:, None] + (S - T)
        j = torch.arange(S, device=x.device)[None, :]
        allowed = (j <= i) & (j > i - self.window)  # bottom-right aligned window
        out = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        return out.transpose(1, 2).reshape(B, T, C)
