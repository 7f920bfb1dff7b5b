import torch
import torch.nn.functional as F
from einops import rearrange
from torch import nn


class Attend(nn.Module):
    def __init__(self, dropout=0.0, flash=False):
        super().__init__()
        self.dropout = dropout
        self.drop = nn.Dropout(dropout)
        self.flash = flash

    def _sdpa(self, q, k, v, mask):
        if mask is not None:
            mask = mask.expand(-1, q.shape[1], q.shape[-2], -1)
        return F.scaled_dot_product_attention(
            q, k, v, attn_mask=mask, dropout_p=self.dropout if self.training else 0.0
        )

    def forward(self, q, k, v, mask=None):
        if mask is not None and mask.ndim != 4:
            mask = rearrange(mask, "b j -> b 1 1 j")
        if self.flash:
            return self._sdpa(q, k, v, mask)

        scale = q.shape[-1] ** -0.5
        sim = torch.einsum("b h i d, b h j d -> b h i j", q, k) * scale
        if mask is not None:
            sim = sim.masked_fill(~mask, -torch.finfo(sim.dtype).max)
        attn = self.drop(sim.softmax(dim=-1))
        return torch.einsum("b h i j, b h j d -> b h i d", attn, v)
