# case: t43cc-18-clean
# modelled-on: NilsLusch/Point-Cloud-Transformer https://github.com/NilsLusch/Point-Cloud-Transformer/commit/84a16b45b8949bbf8e7730b10bd5835e2ab4e642
# label: correct
# class: clean
# pattern: multi-head self-attention for point clouds in channels-first layout (B, C, N): a 1x1 Conv1d makes q, k, v at once, the result is permuted to points-first, split into heads (B, H, N, 3*d) and chunked; the keys are turned into (B, H, d, N) with `k.permute(0, 1, 3, 2)` in the layer, and a helper computes `torch.matmul(q, k)` (no transpose there), `softmax(weight / math.sqrt(key_size), dim=-1)` with `key_size = embedding / heads`, and `weight @ v`; the heads are merged and permuted back to channels-first for a 1x1 Conv1d output and BatchNorm residual blocks
# why: correct: the key transpose happens in the layer before the helper is called, so `q @ k` is (B, H, N, d) @ (B, H, d, N) = (B, H, N, N) scores between points; the scale is the per-head width (embedding / heads), and the softmax runs over the last axis, the keys, which the product with v sums over
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/NilsLusch/Point-Cloud-Transformer https://github.com/NilsLusch/Point-Cloud-Transformer/commit/84a16b45b8949bbf8e7730b10bd5835e2ab4e642 Attention-Modules/Attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


# scale by the sqrt of the key size, otherwise the variance of the scores grows with it
def scaled_self_attention(q, k, v, key_size):
    weight = torch.matmul(q, k)  # b, h, n, n
    weight = F.softmax(weight / math.sqrt(key_size), dim=-1)
    return torch.matmul(weight, v)  # b, h, n, d


class PointMultiheadAttention(nn.Module):
    def __init__(self, embedding, heads):
        super().__init__()
        assert embedding % heads == 0, "embedding channels must be divisible by the number of heads"
        self.embedding = embedding
        self.heads = heads
        self.head_dim = embedding // heads
        self.to_qkv = nn.Conv1d(embedding, embedding * 3, kernel_size=1, bias=False)
        self.out = nn.Conv1d(embedding, embedding, kernel_size=1, bias=False)

    def forward(self, x):
        # x: [batch, channels, num_points]
        batch_size, channels, num_points = x.size()
        qkv = self.to_qkv(x).permute(0, 2, 1)
        qkv = qkv.reshape(batch_size, num_points, self.heads, 3 * self.head_dim).permute(0, 2, 1, 3)
        q, k, v = torch.chunk(qkv, 3, dim=-1)

        # transpose the keys here so the helper can multiply directly
        k = k.permute(0, 1, 3, 2)
        values = scaled_self_attention(q, k, v, self.embedding / self.heads)

        values = values.permute(0, 2, 1, 3).reshape(batch_size, num_points, channels)
        return self.out(values.permute(0, 2, 1))


class PointDecoderBlock(nn.Module):
    def __init__(self, embeddsize, heads, forward_expansion, dropout):
        super().__init__()
        self.attention = PointMultiheadAttention(embeddsize, heads)
        self.norm1 = nn.BatchNorm1d(embeddsize)
        self.norm2 = nn.BatchNorm1d(embeddsize)
        self.feed_forward = nn.Sequential(
            nn.Conv1d(embeddsize, embeddsize * forward_expansion, kernel_size=1),
            nn.ReLU(),
            nn.Conv1d(embeddsize * forward_expansion, embeddsize, kernel_size=1),
            nn.Dropout(dropout),
        )

    def forward(self, x, coordinates=None):
        if coordinates is not None:
            x = x + coordinates
        x = self.norm1(x + self.attention(x))
        return self.norm2(x + self.feed_forward(x))
