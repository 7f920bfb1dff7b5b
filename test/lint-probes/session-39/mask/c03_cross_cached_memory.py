import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.q, self.kv = nn.Linear(d, d), nn.Linear(d, 2 * d)
        self.cache = {}

    def forward(self, x, memory, step_key):
        B, L, d = x.shape
        q = self.q(x).view(B, L, self.h, -1).transpose(1, 2)
        if step_key not in self.cache:  # the encoder's keys are projected once per source
            k, v = self.kv(memory).view(B, memory.size(1), 2, self.h, -1).permute(2, 0, 3, 1, 4)
            self.cache[step_key] = (k, v)
        k, v = self.cache[step_key]
        out = F.scaled_dot_product_attention(q, k, v)  # every target position sees the whole source
        return out.transpose(1, 2).reshape(B, L, d)
