import torch.nn.functional as F
from torch import nn


class PaddedAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, key_padding_mask):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(q, k, v, attn_mask=~key_padding_mask[:, None, None, :])
        return y.transpose(1, 2).reshape(B, T, C)
