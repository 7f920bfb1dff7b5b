import math
import torch
import torch.nn as nn


class RelMHA(nn.Module):
    """`self.sqrt_dim` is the root of each head's width."""

    def __init__(self, d_model, num_heads):
        super().__init__()
        self.d_head = d_model // num_heads
        self.num_heads = num_heads
        self.sqrt_dim = math.sqrt(self.d_head)
        self.query_proj = nn.Linear(d_model, d_model)
        self.key_proj = nn.Linear(d_model, d_model)
        self.value_proj = nn.Linear(d_model, d_model)

    def forward(self, query, key, value):
        B = value.size(0)
        q = self.query_proj(query).view(B, -1, self.num_heads, self.d_head)
        k = self.key_proj(key).view(B, -1, self.num_heads, self.d_head).permute(0, 2, 1, 3)
        v = self.value_proj(value).view(B, -1, self.num_heads, self.d_head).permute(0, 2, 1, 3)
        score = torch.matmul(q.transpose(1, 2), k.transpose(2, 3)) / self.sqrt_dim
        attn = torch.softmax(score, -1)
        return torch.matmul(attn, v).transpose(1, 2).reshape(B, -1, self.num_heads * self.d_head)
