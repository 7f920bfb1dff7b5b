import math
import torch
import torch.nn as nn

from utils import merge_heads, split_heads


class Attention(nn.Module):
    def __init__(self, nx, n_ctx, n_head):
        super().__init__()
        self.n_head = n_head
        self.split_size = nx
        self.register_buffer("bias", torch.tril(torch.ones(n_ctx, n_ctx)).view(1, 1, n_ctx, n_ctx))
        self.c_attn = nn.Linear(nx, nx * 3)
        self.c_proj = nn.Linear(nx, nx)

    def _attn(self, q, k, v):
        w = torch.matmul(q, k)
        w = w / math.sqrt(v.size(-1))
        nd, ns = w.size(-2), w.size(-1)
        b = self.bias[:, :, ns - nd : ns, :ns]
        w = w * b - 1e4 * (1 - b)
        w = nn.Softmax(dim=-1)(w)
        return torch.matmul(w, v)

    def forward(self, x):
        x = self.c_attn(x)
        query, key, value = x.split(self.split_size, dim=2)
        query = split_heads(query, self.n_head)
        key = split_heads(key, self.n_head, k=True)
        value = split_heads(value, self.n_head)
        a = self._attn(query, key, value)
        return self.c_proj(merge_heads(a))
