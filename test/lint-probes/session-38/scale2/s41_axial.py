import torch
import torch.nn as nn


class RowAttention(nn.Module):
    """Attention along the height axis of a (B, C, H, W) feature map."""

    def __init__(self, channels, heads=4):
        super().__init__()
        self.heads = heads
        self.dh = channels // heads
        self.qkv = nn.Conv2d(channels, 3 * channels, 1)

    def forward(self, x):
        B, C, H, W = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=1)
        # (B, C, H, W) -> (B*W, heads, H, dh)
        q, k, v = (t.permute(0, 3, 1, 2).reshape(B * W, self.heads, self.dh, H).transpose(-1, -2) for t in (q, k, v))
        attn = torch.softmax(q @ k.transpose(-1, -2) / self.dh ** 0.5, dim=-1)
        out = attn @ v  # (B*W, heads, H, dh)
        return out.transpose(-1, -2).reshape(B, W, C, H).permute(0, 2, 3, 1)
