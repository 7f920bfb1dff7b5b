# case: b7-23-scale
# modelled-on: Justin900429/vision-transformer https://github.com/Justin900429/vision-transformer/commit/4874948435ac9c33def58e539ad5a6c5411ced07
# label: buggy
# class: real-bug
# pattern: a CaiT re-implementation (adapted, per its docstring, from the reference cait_models.py) with talking-heads attention: a fused qkv projection rearranged by einops to (3, B, heads, S, head_dim), the scores q @ k^T permuted to put the heads last, mixed across heads by a linear layer before and after the softmax; the block in another file builds it with embed_dim and num_heads
# why: buggy: the module computes self.scale = head_dim ** -0.5 but never applies it: the reference scales q by self.scale before q @ k^T, so here the logits entering the softmax are sqrt(head_dim) times too large. No fix was found; the label rests on the reference implementation the docstring names and on the unused scale
# source: https://github.com/Justin900429/vision-transformer https://github.com/Justin900429/vision-transformer/commit/4874948435ac9c33def58e539ad5a6c5411ced07 CaiT/attn_talking_head.py
import einops
import torch.nn as nn


class AttnTalkingHead(nn.Module):
    """Talking-heads attention (https://arxiv.org/abs/2003.02436), adapted from the CaiT reference code."""

    def __init__(self, embed_dim: int, num_heads: int = 8, qkv_bias: bool = False, qk_scale: float = None, attn_drop: float = 0.0, proj_drop: float = 0.0):
        super().__init__()
        self.num_heads = num_heads
        head_dim = embed_dim // num_heads
        self.scale = qk_scale or head_dim**-0.5
        self.qkv = nn.Linear(embed_dim, embed_dim * 3, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(embed_dim, embed_dim)
        self.proj_l = nn.Linear(num_heads, num_heads)
        self.proj_w = nn.Linear(num_heads, num_heads)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        # x: (B, S, embed_dim) -> q, k, v: (B, heads, S, head_dim)
        qkv = einops.rearrange(self.qkv(x), "b s (n h e) -> n b h s e", n=3, h=self.num_heads)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)).permute(0, 2, 3, 1)  # (B, S, S, heads)
        attn = self.proj_l(attn).permute(0, 3, 1, 2)  # (B, heads, S, S)
        attn = attn.softmax(dim=-1).permute(0, 2, 3, 1)  # expect: ATT003
        attn = self.proj_w(attn).permute(0, 3, 1, 2)
        attn = self.attn_drop(attn)
        x = einops.rearrange(attn @ v, "b n s e -> b s (n e)")
        return self.proj_drop(self.proj(x))
