import torch
import torch.nn as nn


class Decoder(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.self_attn = nn.MultiheadAttention(d, h, batch_first=True)

    def forward(self, x):
        T = x.size(1)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), 1)
        bias = torch.zeros(T, T, device=x.device).masked_fill(future, float("-inf"))  # additive: -inf on the future
        out, _ = self.self_attn(x, x, x, attn_mask=bias)
        return out
