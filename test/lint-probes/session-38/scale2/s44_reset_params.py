import torch
import torch.nn as nn
import torch.nn.functional as F


class MHA(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self._reset_parameters()

    def _reset_parameters(self):
        self.head_dim = self.embed_dim // self.num_heads
        self.in_proj = nn.Linear(self.embed_dim, 3 * self.embed_dim)
        nn.init.xavier_uniform_(self.in_proj.weight)

    def forward(self, x):
        T, B, E = x.shape
        q, k, v = self.in_proj(x).chunk(3, dim=-1)
        q = q.contiguous().view(T, B * self.num_heads, self.head_dim).transpose(0, 1)
        k = k.contiguous().view(T, B * self.num_heads, self.head_dim).transpose(0, 1)
        v = v.contiguous().view(T, B * self.num_heads, self.head_dim).transpose(0, 1)
        q = q * float(self.head_dim) ** -0.5
        w = F.softmax(torch.bmm(q, k.transpose(1, 2)), dim=-1)
        return torch.bmm(w, v).transpose(0, 1).contiguous().view(T, B, E)
