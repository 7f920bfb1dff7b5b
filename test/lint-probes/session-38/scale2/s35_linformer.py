import torch
import torch.nn as nn


class LinformerAttention(nn.Module):
    def __init__(self, dim, seq_len, k=256, heads=8):
        super().__init__()
        self.heads = heads
        self.dim_head = dim // heads
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_k = nn.Linear(dim, dim, bias=False)
        self.to_v = nn.Linear(dim, dim, bias=False)
        self.proj_k = nn.Parameter(torch.randn(seq_len, k) / k ** 0.5)
        self.proj_v = nn.Parameter(torch.randn(seq_len, k) / k ** 0.5)

    def forward(self, x):
        b, n, d = x.shape
        h, dh = self.heads, self.dim_head
        q = self.to_q(x).reshape(b, n, h, dh).transpose(1, 2)
        keys = torch.einsum("bnd,nk->bkd", self.to_k(x), self.proj_k)
        values = torch.einsum("bnd,nk->bkd", self.to_v(x), self.proj_v)
        keys = keys.reshape(b, -1, h, dh).transpose(1, 2)
        values = values.reshape(b, -1, h, dh).transpose(1, 2)
        dots = torch.einsum("bhnd,bhkd->bhnk", q, keys) * (dh ** -0.5)
        attn = dots.softmax(dim=-1)
        out = torch.einsum("bhnk,bhkd->bhnd", attn, values)
        return out.transpose(1, 2).reshape(b, n, -1)
