import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, heads=8):
        super().__init__()
        self.heads = heads
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)

    def forward(self, x, key_mask):
        b, n, d = x.shape
        q, k, v = self.to_qkv(x).reshape(b, n, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        dots = torch.einsum("bhid,bhjd->bhij", q, k) * (q.shape[-1] ** -0.5)
        dots = dots.masked_fill(~key_mask[:, None, None, :], -1e9)
        attn = dots.softmax(dim=-1).to(v.dtype)
        return torch.einsum("bhij,bhjd->bhid", attn, v).transpose(1, 2).reshape(b, n, d)


model = Attention(256).cuda().half()
