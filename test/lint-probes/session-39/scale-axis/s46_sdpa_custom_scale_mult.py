import torch
import torch.nn as nn
import torch.nn.functional as F


class QKNormSDPA(nn.Module):
    """q and k RMS-normalised; the kernel is handed an explicit scale of 1/sqrt(head_dim)."""

    def __init__(self, dim, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = dim // n_heads
        self.wqkv = nn.Linear(dim, 3 * dim, bias=False)
        self.q_norm = nn.RMSNorm(self.head_dim)
        self.k_norm = nn.RMSNorm(self.head_dim)

    def forward(self, x):
        B, T, D = x.shape
        q, k, v = self.wqkv(x).view(B, T, 3, self.n_heads, self.head_dim).unbind(2)
        q, k = self.q_norm(q), self.k_norm(k)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))  # (B, H, T, hd)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=1.0 / self.head_dim ** 0.5)
        return y.transpose(1, 2).reshape(B, T, D)
