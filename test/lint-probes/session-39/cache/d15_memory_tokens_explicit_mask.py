import torch
import torch.nn as nn
import torch.nn.functional as F


class MemAttention(nn.Module):
    def __init__(self, d, h, n_mem):
        super().__init__()
        self.h, self.n_mem = h, n_mem
        self.qkv = nn.Linear(d, 3 * d)
        self.mem_k = nn.Parameter(torch.randn(h, n_mem, d // h))
        self.mem_v = nn.Parameter(torch.randn(h, n_mem, d // h))

    def forward(self, x):
        B, T, d = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.h, -1).permute(2, 0, 3, 1, 4)
        k = torch.cat([self.mem_k.expand(B, -1, -1, -1), k], dim=-2)
        v = torch.cat([self.mem_v.expand(B, -1, -1, -1), v], dim=-2)
        S = k.size(-2)
        # memory slots visible to every query, causal over the sequence itself
        allowed = torch.ones(T, S, dtype=torch.bool, device=x.device).tril(diagonal=self.n_mem)
        return F.scaled_dot_product_attention(q, k, v, attn_mask=allowed).transpose(1, 2).reshape(B, T, d)
