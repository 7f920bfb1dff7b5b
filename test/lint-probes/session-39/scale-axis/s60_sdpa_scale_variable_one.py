import torch
import torch.nn as nn
import torch.nn.functional as F


class MaybePrescaled(nn.Module):
    """q is scaled by the module when `prescale` is set; the kernel is then handed scale 1.0 through a variable."""

    def __init__(self, dim, heads, prescale=True):
        super().__init__()
        self.heads = heads
        self.hd = dim // heads
        self.prescale = prescale
        self.kernel_scale = 1.0 if prescale else None
        self.qkv = nn.Linear(dim, 3 * dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.heads, self.hd).permute(2, 0, 3, 1, 4)
        if self.prescale:
            q = q * self.hd ** -0.5
        y = F.scaled_dot_product_attention(q, k, v, scale=self.kernel_scale)
        return y.transpose(1, 2).reshape(B, T, D)
