import torch
import torch.nn as nn


class SeqFirstAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.h = num_heads
        self.in_proj = nn.Linear(embed_dim, 3 * embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x):
        L, N, E = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.view(L, N, self.h, E // self.h)
        k = k.view(L, N, self.h, E // self.h)
        v = v.view(L, N, self.h, E // self.h)
        scale = q.size(3) ** -0.5
        attn = torch.einsum("lnhd,snhd->nhls", q, k) * scale
        attn = attn.softmax(dim=-1)
        out = torch.einsum("nhls,snhd->lnhd", attn, v).reshape(L, N, E)
        return self.out_proj(out)
