import torch.nn.functional as F
from torch import nn


class Causal(nn.Module):
    def __init__(self, d, h, p=0.0):
        super().__init__()
        self.h, self.p = h, p
        self.c_attn = nn.Linear(d, 3 * d)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.h, -1).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(
            q, k, v, attn_mask=None, dropout_p=self.p if self.training else 0, is_causal=True
        )
        return y.transpose(1, 2).contiguous().view(B, T, C)
