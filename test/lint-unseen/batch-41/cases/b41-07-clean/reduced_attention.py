# case: b41-07-clean
# modelled-on: PakoMarano/efficient-self-attention-for-perceptual-similarity https://github.com/PakoMarano/efficient-self-attention-for-perceptual-similarity/commit/c2e5307e344471c028b74440a3fa0e6dff78064b
# label: correct
# class: clean
# pattern: spatial-reduction attention swapped into a pretrained ViT (a folder: the backbone's attention, the replacement and the swap): the replacement takes the projections and the scale from the module it replaces (self.scale = original.scale, set there as qk_scale or head_dim ** -0.5), keeps all queries at full resolution, average-pools the patch keys and values on their square grid (the CLS key and value are kept apart and re-joined in front), and computes (q @ k_reduced^T) * scale, softmax over the last axis
# why: correct: the scale is the backbone's own 1/sqrt(head_dim), merely read from another module; pooling changes how many keys there are, not their width, so the scale stays right; the permutes only move the channel axis for avg_pool2d and back, and the keys are transposed in the score product as usual; softmax over the last axis normalises each query over the 1 + (S/r)^2 reduced keys; a vision backbone has no mask
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/PakoMarano/efficient-self-attention-for-perceptual-similarity https://github.com/PakoMarano/efficient-self-attention-for-perceptual-similarity/commit/c2e5307e344471c028b74440a3fa0e6dff78064b model/efficient_modules/sra.py
import torch
import torch.nn.functional as F
from torch import nn


class PooledKeyAttention(nn.Module):
    """Queries attend to average-pooled patch keys/values plus the untouched CLS key/value."""

    def __init__(self, original: nn.Module, ratio: int = 2):
        super().__init__()
        if ratio <= 0:
            raise ValueError("ratio must be positive")
        self.ratio = ratio
        self.num_heads = original.num_heads
        self.scale = original.scale
        self.qkv, self.proj = original.qkv, original.proj
        self.attn_drop, self.proj_drop = original.attn_drop, original.proj_drop
        self.skipped = 0

    def pool(self, t):
        # t: (B, H, N, D) with N = side * side patch tokens
        b, h, n, d = t.shape
        side = int(n**0.5)
        if side * side != n or side % self.ratio != 0:
            self.skipped += 1
            return t
        grid = t.reshape(b * h, side, side, d).permute(0, 3, 1, 2)
        grid = F.avg_pool2d(grid, kernel_size=self.ratio, stride=self.ratio)
        return grid.permute(0, 2, 3, 1).reshape(b, h, -1, d)

    def forward(self, x):
        b, n, c = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, self.num_heads, c // self.num_heads)
        q, k, v = qkv.permute(2, 0, 3, 1, 4)
        k = torch.cat([k[:, :, :1], self.pool(k[:, :, 1:])], dim=2)
        v = torch.cat([v[:, :, :1], self.pool(v[:, :, 1:])], dim=2)
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = self.attn_drop(attn.softmax(dim=-1))
        out = (attn @ v).transpose(1, 2).reshape(b, n, c)
        return self.proj_drop(self.proj(out)), attn
