import torch
import torch.nn as nn
import torch.nn.functional as F


class MupSDPA(nn.Module):
    def __init__(self, n_embd, n_head, mup=True):
        super().__init__()
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.attn_scale = 1.0 / self.head_dim if mup else self.head_dim ** -0.5
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q, k, v = (t.view(B, T, self.n_head, self.head_dim).transpose(1, 2) for t in (q, k, v))
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=self.attn_scale)
        return y.transpose(1, 2).reshape(B, T, C)
