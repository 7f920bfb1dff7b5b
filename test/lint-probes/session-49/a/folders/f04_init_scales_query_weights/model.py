import torch
import torch.nn as nn

from init import init_weights
from layers import UnscaledAttention


class Encoder(nn.Module):
    def __init__(self, d_model=512, n_heads=8, d_kv=64, n_layers=6, num_buckets=32):
        super().__init__()
        self.layers = nn.ModuleList([UnscaledAttention(d_model, n_heads, d_kv) for _ in range(n_layers)])
        self.rel_bias = nn.Embedding(num_buckets, n_heads)
        self.apply(init_weights)

    def forward(self, x, buckets):
        bias = self.rel_bias(buckets).permute(2, 0, 1).unsqueeze(0)
        for layer in self.layers:
            x = x + layer(x, bias)
        return x
