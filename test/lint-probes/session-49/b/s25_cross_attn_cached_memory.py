import torch.nn.functional as F
from torch import nn


class CrossAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)
        self.memory = None

    def forward(self, x, enc):
        B, T, C = x.shape
        q = self.q(x).view(B, T, self.h, -1).transpose(1, 2)
        if self.memory is None:
            k, v = self.kv(enc).view(B, enc.size(1), 2, self.h, -1).permute(2, 0, 3, 1, 4)
            self.memory = (k, v)
        k, v = self.memory
        y = F.scaled_dot_product_attention(q, k, v, is_causal=False)
        return y.transpose(1, 2).reshape(B, T, C)
