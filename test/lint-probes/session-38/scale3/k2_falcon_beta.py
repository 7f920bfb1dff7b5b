import math
import torch
import torch.nn as nn
import torch.nn.functional as F


class FalconAttention(nn.Module):
    def __init__(self, hidden_size, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = hidden_size // num_heads
        self.inv_norm_factor = 1.0 / math.sqrt(self.head_dim)
        self.beta = self.inv_norm_factor
        self.query_key_value = nn.Linear(hidden_size, 3 * hidden_size)

    def forward(self, x, alibi=None):
        B, T, _ = x.shape
        q, k, v = self.query_key_value(x).view(B, T, 3, self.num_heads, self.head_dim).permute(2, 0, 3, 1, 4)
        if alibi is None:
            out = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            scores = q @ k.transpose(-1, -2)
            scores = (scores + alibi.view(B, self.num_heads, 1, -1)) * self.inv_norm_factor
            out = scores.softmax(-1) @ v
        return out.transpose(1, 2).reshape(B, T, -1)
