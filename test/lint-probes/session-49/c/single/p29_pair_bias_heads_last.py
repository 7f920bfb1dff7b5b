import torch
import torch.nn as nn


class TriangleAttention(nn.Module):
    """Row-wise attention over a pair representation z: (B, N, N, c), heads kept last in the logits."""

    def __init__(self, c, heads, dh):
        super().__init__()
        self.h, self.dh = heads, dh
        self.q = nn.Linear(c, heads * dh, bias=False)
        self.k = nn.Linear(c, heads * dh, bias=False)
        self.v = nn.Linear(c, heads * dh, bias=False)
        self.b = nn.Linear(c, heads, bias=False)

    def forward(self, z, pair_mask):
        B, N, _, c = z.shape
        q = self.q(z).view(B, N, N, self.h, self.dh)
        k = self.k(z).view(B, N, N, self.h, self.dh)
        v = self.v(z).view(B, N, N, self.h, self.dh)
        logits = torch.einsum("bijhd,bikhd->bijkh", q, k) * self.dh ** -0.5
        logits = logits + self.b(z).unsqueeze(1)  # (B, 1, N, N, h): bias from the pair j, k
        logits = logits.masked_fill(~pair_mask[:, :, None, :, None], -1e9)
        a = logits.softmax(dim=3)  # over k
        out = torch.einsum("bijkh,bikhd->bijhd", a, v)
        return out.reshape(B, N, N, self.h * self.dh)
