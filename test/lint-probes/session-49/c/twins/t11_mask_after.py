import torch
import torch.nn as nn


class SparseAttention(nn.Module):
    """Softmax, keep the top-k weights per query, renormalise."""

    def __init__(self, d, topk=8):
        super().__init__()
        self.topk = topk
        self.scale = d ** -0.5

    def forward(self, q, k, v, key_padding):
        # q, k, v: (B, H, T, d); key_padding: (B, T), True at padding
        scores = (q @ k.transpose(-2, -1)) * self.scale
        
        w = scores.softmax(dim=-1)
        kth = w.topk(min(self.topk, w.size(-1)), dim=-1).values[..., -1:]
        w = w.masked_fill(key_padding[:, None, None, :], 0.0)
        
        return w @ v
