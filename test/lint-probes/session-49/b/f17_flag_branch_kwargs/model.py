import torch.nn.functional as F
from torch import nn


class Mixer(nn.Module):
    def __init__(self, d, h, is_causal=False):
        super().__init__()
        self.h, self.is_causal = h, is_causal
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, mask=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        if self.is_causal:
            mask = None
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask, is_causal=self.is_causal)
        return y.transpose(1, 2).reshape(B, T, C)
