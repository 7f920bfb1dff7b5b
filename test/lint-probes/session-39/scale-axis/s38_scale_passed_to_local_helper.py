import torch
import torch.nn as nn
import torch.nn.functional as F


def window_attend(q, k, v, window, scale):
    # q, k, v: (B, H, N, d); attends within non-overlapping windows of `window` tokens
    B, H, N, d = q.shape
    q, k, v = (t.reshape(B, H, N // window, window, d) for t in (q, k, v))
    sim = torch.einsum("bhwid,bhwjd->bhwij", q, k) * scale
    p = F.softmax(sim, dim=-1)
    return torch.einsum("bhwij,bhwjd->bhwid", p, v).reshape(B, H, N, d)


class LocalAttention(nn.Module):
    def __init__(self, dim, heads, window=16):
        super().__init__()
        self.heads = heads
        self.window = window
        self.scale = (dim // heads) ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, N, D = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, D // self.heads).permute(2, 0, 3, 1, 4)
        out = window_attend(q, k, v, self.window, self.scale)
        return out.transpose(1, 2).reshape(B, N, D)
