import math

import torch
import torch.nn as nn


class RotarySelfAttention(nn.Module):
    def __init__(self, hidden_size, num_heads, rope, dropout=0.1):
        super().__init__()
        self.num_heads = num_heads
        self.head_size = hidden_size // num_heads
        self.all_head_size = self.num_heads * self.head_size
        self.query = nn.Linear(hidden_size, self.all_head_size)
        self.key = nn.Linear(hidden_size, self.all_head_size)
        self.value = nn.Linear(hidden_size, self.all_head_size)
        self.rope = rope
        self.dropout = nn.Dropout(dropout)

    def split(self, x):
        # (b, s, all_head_size) -> (b, heads, s, head_size)
        return x.view(x.size()[:-1] + (self.num_heads, self.head_size)).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask=None):
        q = self.rope(self.split(self.query(hidden_states)))
        k = self.rope(self.split(self.key(hidden_states)))
        v = self.split(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_size)
        if attention_mask is not None:
            # the mask is precomputed once for all layers in the model's forward
            scores = scores.masked_fill(attention_mask, value=torch.tensor(-1e8))
        probs = self.dropout(nn.Softmax(dim=-1)(scores))
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(ctx.size()[:-2] + (self.all_head_size,))
