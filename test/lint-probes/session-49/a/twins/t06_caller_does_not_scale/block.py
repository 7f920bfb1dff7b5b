import torch.nn as nn

from functional import attend


class SelfAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.head_dim = dim // heads
        self.scaling = self.head_dim ** -0.5
        self.q_proj = nn.Linear(dim, dim)
        self.k_proj = nn.Linear(dim, dim)
        self.v_proj = nn.Linear(dim, dim)
        self.out = nn.Linear(dim, dim)

    def _shape(self, t, b, n):
        return t.view(b, n, self.heads, self.head_dim).transpose(1, 2)

    def forward(self, x, bias=None):
        b, n, _ = x.shape
        q = self._shape(self.q_proj(x), b, n)
        k = self._shape(self.k_proj(x), b, n)
        v = self._shape(self.v_proj(x), b, n)
        y = attend(q, k, v, bias=bias)
        return self.out(y.transpose(1, 2).reshape(b, n, -1))
