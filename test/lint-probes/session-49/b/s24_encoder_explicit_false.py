import torch.nn.functional as F
from torch import nn


class EncoderAttention(nn.Module):
    def __init__(self, d, h, p=0.1):
        super().__init__()
        self.h, self.p = h, p
        self.qkv = nn.Linear(d, 3 * d)

    def forward(self, x, keep):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        y = F.scaled_dot_product_attention(
            q, k, v, attn_mask=keep[:, None, None, :], dropout_p=self.p if self.training else 0.0, is_causal=False
        )
        return y.transpose(1, 2).reshape(B, T, C)
