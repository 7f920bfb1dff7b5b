# case: b7-24-clean
# modelled-on: Justin900429/vision-transformer https://github.com/Justin900429/vision-transformer/commit/4874948435ac9c33def58e539ad5a6c5411ced07
# label: correct
# class: clean
# pattern: CaiT's class-attention block from a collection of vision-transformer re-implementations: the class token alone is the query, pre-scaled by head_dim ** -0.5 after an einops rearrange, and the scores come from einsum "bnqe,bnke->bnqk" with one query row, normalised over the keys
# why: correct: the class-attention query carries the 1/sqrt(head_dim) scale (applied to q, not to the scores), and the softmax runs over the keys of (B, heads, 1, S)
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/Justin900429/vision-transformer https://github.com/Justin900429/vision-transformer/commit/4874948435ac9c33def58e539ad5a6c5411ced07 CaiT/cls_block.py
import einops
import torch
import torch.nn as nn


class ClassAttention(nn.Module):
    def __init__(self, embed_dim: int, num_heads: int = 8, qkv_bias: bool = False, qk_scale: float = None):
        super().__init__()
        self.num_heads = num_heads
        head_dim = embed_dim // num_heads
        self.scale = qk_scale or head_dim**-0.5
        self.q_w = nn.Linear(embed_dim, embed_dim, bias=qkv_bias)
        self.k_w = nn.Linear(embed_dim, embed_dim, bias=qkv_bias)
        self.v_w = nn.Linear(embed_dim, embed_dim, bias=qkv_bias)
        self.proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x):
        # x: (B, S, embed_dim); the class token x[:, 0] is the only query
        q = einops.rearrange(self.q_w(x[:, 0:1]), "b s (n e) -> b n s e", n=self.num_heads) * self.scale  # (B, heads, 1, e)
        k = einops.rearrange(self.k_w(x), "b s (n e) -> b n s e", n=self.num_heads)  # (B, heads, S, e)
        v = einops.rearrange(self.v_w(x), "b s (n e) -> b n s e", n=self.num_heads)
        attn = torch.einsum("bnqe,bnke->bnqk", q, k)  # (B, heads, 1, S)
        attn = attn.softmax(dim=-1)
        x_cls = torch.einsum("bnqk,bnke->bnqe", attn, v)
        return self.proj(einops.rearrange(x_cls, "b n q e -> b q (n e)"))  # (B, 1, embed_dim)

