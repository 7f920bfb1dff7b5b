import torch
import torch.nn as nn
import torch.nn.functional as F


class MLA(nn.Module):
    """Decoupled RoPE: the keys are the no-position part and the rotary part joined along the FEATURE axis."""

    def __init__(self, d, h, d_nope, d_rope):
        super().__init__()
        self.h, self.d_nope, self.d_rope = h, d_nope, d_rope
        self.q = nn.Linear(d, h * (d_nope + d_rope))
        self.k_nope = nn.Linear(d, h * d_nope)
        self.k_pe = nn.Linear(d, d_rope)
        self.v = nn.Linear(d, h * d_nope)

    def forward(self, x, rope):
        B, T, _ = x.shape
        q = self.q(x).view(B, T, self.h, -1).transpose(1, 2)  # (B, h, T, d_nope + d_rope)
        k_nope = self.k_nope(x).view(B, T, self.h, self.d_nope).transpose(1, 2)  # (B, h, T, d_nope)
        k_pe = rope(self.k_pe(x)).view(B, 1, T, self.d_rope).expand(B, self.h, T, self.d_rope)  # shared by the heads
        k = torch.cat([k_nope, k_pe], dim=-1)  # (B, h, T, d_nope + d_rope)
        v = self.v(x).view(B, T, self.h, self.d_nope).transpose(1, 2)
        return F.scaled_dot_product_attention(q, k, v, is_causal=True)
