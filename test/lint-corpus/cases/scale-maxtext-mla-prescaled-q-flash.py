# case: scale-maxtext-mla-prescaled-q-flash
# modelled-on: AI-Hypercomputer/maxtext https://github.com/AI-Hypercomputer/maxtext/issues/3138
# label: buggy
# pattern: the attention layer multiplies the projected queries by its softmax scale (so that the plain dot-product path needs no scale), and the fused path hands the same pre-scaled queries to a flash kernel that applies its own default 1/sqrt(d) (written here with flash-attn's flash_attn_func on (B, S, H, D) tensors)
# why: the fused path scales twice, so its attention is flatter than the dot-product path's; the issue reports results that do not match attention=dot_product
import torch
import torch.nn as nn
from flash_attn import flash_attn_func


class MLA(nn.Module):
    def __init__(self, hidden: int, heads: int, qk_head_dim: int, v_head_dim: int, use_flash: bool = True):
        super().__init__()
        self.heads = heads
        self.qk_head_dim = qk_head_dim
        self.v_head_dim = v_head_dim
        self.softmax_scale = qk_head_dim ** -0.5
        self.use_flash = use_flash
        self.wq = nn.Linear(hidden, heads * qk_head_dim, bias=False)
        self.wk = nn.Linear(hidden, heads * qk_head_dim, bias=False)
        self.wv = nn.Linear(hidden, heads * v_head_dim, bias=False)
        self.wo = nn.Linear(heads * v_head_dim, hidden, bias=False)

    def forward(self, x):
        B, S, _ = x.shape
        q = self.wq(x).view(B, S, self.heads, self.qk_head_dim)
        q = q * self.softmax_scale  # pre-scale for the dot-product path
        k = self.wk(x).view(B, S, self.heads, self.qk_head_dim)
        v = self.wv(x).view(B, S, self.heads, self.v_head_dim)
        if self.use_flash:
            out = flash_attn_func(q, k, v, causal=True)  # expect: ATT004
        else:
            scores = torch.einsum("bqhd,bkhd->bhqk", q, k)
            causal = torch.ones(S, S, dtype=torch.bool, device=x.device).triu(1)
            scores = scores.masked_fill(causal, float("-inf"))
            out = torch.einsum("bhqk,bkhd->bqhd", scores.softmax(dim=-1), v)
        return self.wo(out.reshape(B, S, self.heads * self.v_head_dim))
