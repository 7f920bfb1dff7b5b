import math
import torch
import torch.nn as nn


class L2Attention(nn.Module):
    """Lipschitz L2 self-attention: logits are -||q_i - k_j||^2 / sqrt(d), with tied q/k weights."""

    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.dh = d_model // n_heads
        self.wq = nn.Linear(d_model, d_model, bias=False)
        self.wv = nn.Linear(d_model, d_model, bias=False)

    def forward(self, x):
        B, T, D = x.shape
        q = self.wq(x).view(B, T, self.h, self.dh).transpose(1, 2)  # (B, h, T, dh)
        v = self.wv(x).view(B, T, self.h, self.dh).transpose(1, 2)
        qq = (q * q).sum(-1, keepdim=True)  # (B, h, T, 1)
        dist = qq - 2 * q @ q.transpose(-1, -2) + qq.transpose(-1, -2)  # (B, h, T, T)
        w = torch.softmax(-dist / math.sqrt(self.dh), dim=-1)
        return (w @ v).transpose(1, 2).reshape(B, T, D)
