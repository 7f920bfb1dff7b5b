# case: scale-gemma-qk-norm-scaling-one
# modelled-on: zzhhjjj/gemma-triton-flash-attn https://github.com/zzhhjjj/gemma-triton-flash-attn/issues/6
# label: correct
# pattern: a Gemma-style attention that RMS-normalises q and k per head and, like the HF implementation the issue cites, uses scaling = 1.0, passed to SDPA as scale=self.scaling
# why: the model was trained with query/key norm and no 1/sqrt(d); applying the usual scale (what the kernel did) would be the bug
# looks-like: ATT003, ATT004
import torch
import torch.nn as nn
import torch.nn.functional as F


class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x * torch.rsqrt(x.float().pow(2).mean(-1, keepdim=True) + self.eps).type_as(x)
        return x * self.weight


class QKNormAttention(nn.Module):
    def __init__(self, hidden_size: int, num_heads: int, num_kv_heads: int, head_dim: int):
        super().__init__()
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = head_dim
        self.scaling = 1.0  # q and k are normalised; the checkpoints use no 1/sqrt(d)
        self.q_proj = nn.Linear(hidden_size, num_heads * head_dim, bias=False)
        self.k_proj = nn.Linear(hidden_size, num_kv_heads * head_dim, bias=False)
        self.v_proj = nn.Linear(hidden_size, num_kv_heads * head_dim, bias=False)
        self.o_proj = nn.Linear(num_heads * head_dim, hidden_size, bias=False)
        self.q_norm = RMSNorm(head_dim)
        self.k_norm = RMSNorm(head_dim)

    def forward(self, x: torch.Tensor, causal: bool = True) -> torch.Tensor:
        B, T, _ = x.shape
        q = self.q_norm(self.q_proj(x).view(B, T, self.num_heads, self.head_dim)).transpose(1, 2)
        k = self.k_norm(self.k_proj(x).view(B, T, self.num_kv_heads, self.head_dim)).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.num_kv_heads, self.head_dim).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, is_causal=causal, scale=self.scaling, enable_gqa=True)
        return self.o_proj(out.transpose(1, 2).reshape(B, T, -1))
