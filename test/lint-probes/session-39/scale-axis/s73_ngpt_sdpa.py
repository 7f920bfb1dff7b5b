import torch
import torch.nn as nn
import torch.nn.functional as F


def justnorm(x):
    return x / x.norm(p=2, dim=-1, keepdim=True)


class NormalizedAttention(nn.Module):
    """nGPT: q and k are unit vectors (times a learned sqk), so the softmax scale is sqrt(d_head), not 1/sqrt(d_head)."""

    def __init__(self, n_embd, n_head):
        super().__init__()
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.qkv = nn.Linear(n_embd, 3 * n_embd, bias=False)
        self.sqk = nn.Parameter(torch.ones(n_head, 1, self.head_dim))

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_head, self.head_dim).permute(2, 0, 3, 1, 4)
        q = self.sqk * justnorm(q)
        k = self.sqk * justnorm(k)
        y = F.scaled_dot_product_attention(q, k, v, is_causal=True, scale=self.head_dim ** 0.5)
        return y.transpose(1, 2).reshape(B, T, C)
