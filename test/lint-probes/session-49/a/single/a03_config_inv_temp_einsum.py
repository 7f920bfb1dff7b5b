import math
import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, config):
        super().__init__()
        self.n_heads = config.num_attention_heads
        self.d_head = config.hidden_size // config.num_attention_heads
        self.inv_temp = 1.0 / math.sqrt(self.d_head)
        self.qkv = nn.Linear(config.hidden_size, 3 * config.hidden_size)
        self.out = nn.Linear(config.hidden_size, config.hidden_size)

    def forward(self, hidden, attention_mask=None):
        b, t, _ = hidden.shape
        q, k, v = self.qkv(hidden).view(b, t, 3, self.n_heads, self.d_head).unbind(dim=2)
        logits = torch.einsum("bqhd,bkhd->bhqk", q, k) * self.inv_temp
        if attention_mask is not None:
            logits = logits + attention_mask
        probs = logits.softmax(dim=-1)
        ctx = torch.einsum("bhqk,bkhd->bqhd", probs, v).reshape(b, t, -1)
        return self.out(ctx)
