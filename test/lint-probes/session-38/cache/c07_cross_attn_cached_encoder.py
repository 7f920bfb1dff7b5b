import torch
import torch.nn as nn
import torch.nn.functional as F


class CrossAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.h = n_heads
        self.q = nn.Linear(d_model, d_model)
        self.kv = nn.Linear(d_model, 2 * d_model)

    def forward(self, x, encoder_out, cache=None):
        B, T, C = x.shape
        q = self.q(x).view(B, T, self.h, -1).transpose(1, 2)
        if cache is not None and "enc_k" in cache:
            k, v = cache["enc_k"], cache["enc_v"]
        else:
            k, v = self.kv(encoder_out).view(B, -1, 2, self.h, C // self.h).permute(2, 0, 3, 1, 4)
            if cache is not None:
                cache["enc_k"], cache["enc_v"] = k, v
        out = F.scaled_dot_product_attention(q, k, v)  # cross-attention: no causal mask
        return out.transpose(1, 2).reshape(B, T, C)
