import torch.nn.functional as F
from torch import nn


class Layer(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, pad_keep=None, causal=False):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        if causal:
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        else:
            mask = None if pad_keep is None else pad_keep[:, None, None, :]
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=mask)
        return y.transpose(1, 2).reshape(B, T, C)
