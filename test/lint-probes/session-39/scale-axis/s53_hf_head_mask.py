import math
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, hidden_size, num_attention_heads):
        super().__init__()
        self.n = num_attention_heads
        self.size = hidden_size // num_attention_heads
        self.query = nn.Linear(hidden_size, hidden_size)
        self.key = nn.Linear(hidden_size, hidden_size)
        self.value = nn.Linear(hidden_size, hidden_size)

    def t(self, x):
        return x.view(x.size(0), x.size(1), self.n, self.size).permute(0, 2, 1, 3)

    def forward(self, hidden_states, attention_mask=None, layer_head_mask=None):
        q, k, v = self.t(self.query(hidden_states)), self.t(self.key(hidden_states)), self.t(self.value(hidden_states))
        scores = torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.size)
        if attention_mask is not None:
            scores = scores + attention_mask
        probs = nn.functional.softmax(scores, dim=-1)
        if layer_head_mask is not None:
            probs = probs * layer_head_mask.view(1, -1, 1, 1)  # prune whole heads
        ctx = torch.matmul(probs, v).permute(0, 2, 1, 3).contiguous()
        return ctx.view(ctx.size(0), ctx.size(1), -1)
