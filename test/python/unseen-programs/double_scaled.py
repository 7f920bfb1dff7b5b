# label: buggy
# why: q is already multiplied by head_dim**-0.5 in forward, and attn_scores divides by sqrt(head_dim) again (1/d in total)
import math

import torch
from torch import nn


class Attention(nn.Module):
    def __init__(self, dim, num_heads=8):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scaling = self.head_dim ** -0.5
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.o_proj = nn.Linear(dim, dim)

    def _shape(self, t, bsz):
        return t.view(bsz, -1, self.num_heads, self.head_dim).transpose(1, 2)

    def attn_scores(self, q, k):
        return torch.matmul(q, k.transpose(-1, -2)) / math.sqrt(self.head_dim)  # expect: ATT004

    def forward(self, hidden):
        bsz = hidden.size(0)
        q = self._shape(self.q_proj(hidden) * self.scaling, bsz)
        k = self._shape(self.k_proj(hidden), bsz)
        v = self._shape(self.v_proj(hidden), bsz)
        weights = nn.functional.softmax(self.attn_scores(q, k), dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2).reshape(bsz, -1, self.num_heads * self.head_dim)
        return self.o_proj(out)


if __name__ == "__main__":
    torch.manual_seed(7)
    attn = Attention(256, num_heads=4)
    h = torch.randn(2, 11, 256)
    print(attn(h).shape)
