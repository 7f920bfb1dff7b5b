import torch.nn.functional as F
from torch import nn


class Attention(nn.Module):
    def __init__(self, d, h, causal=True):
        super().__init__()
        self.h, self.causal = h, causal
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, attn_mask=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        if attn_mask is not None:
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=attn_mask)
        else:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=self.causal)
        return y.transpose(1, 2).reshape(B, T, C)
