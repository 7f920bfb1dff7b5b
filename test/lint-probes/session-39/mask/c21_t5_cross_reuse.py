import torch
import torch.nn as nn
import torch.nn.functional as F


class T5CrossAttention(nn.Module):
    def __init__(self, d, h):
        super().__init__()
        self.h = h
        self.q, self.k, self.v = nn.Linear(d, d, bias=False), nn.Linear(d, d, bias=False), nn.Linear(d, d, bias=False)

    def forward(self, x, encoder_states, past_cross=None):
        B, L, d = x.shape
        q = self.q(x).view(B, L, self.h, -1).transpose(1, 2)
        if past_cross is None:
            S = encoder_states.size(1)
            k = self.k(encoder_states).view(B, S, self.h, -1).transpose(1, 2)
            v = self.v(encoder_states).view(B, S, self.h, -1).transpose(1, 2)
        else:
            k, v = past_cross
        out = F.scaled_dot_product_attention(q, k, v, is_causal=False, scale=1.0)  # T5: no scaling
        return out.transpose(1, 2).reshape(B, L, d), (k, v)
