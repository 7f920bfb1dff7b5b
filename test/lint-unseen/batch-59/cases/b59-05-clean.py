# case: b59-05-clean
# modelled-on: lightly-ai/lightly-train https://github.com/lightly-ai/lightly-train/commit/d445dcd5e9009b7a4ccb97281e26590fd38ae6cf
# label: correct
# class: clean
# pattern: a small ViT backbone for an edge detector: one register token is prepended to the patch tokens, rotary position embeddings are applied to the queries and keys of the patches only (the register token is split off and put back), and attention is SDPA with no explicit scale while the module still computes `self.scale = head_dim ** -0.5` and never uses it
# why: correct: SDPA scales by 1/sqrt(E) of the queries' last axis by default, which is head_dim here, the same value as the unused `self.scale`, so the scores are scaled exactly once; the fused qkv is split per head before the transpose to (B, heads, N, head_dim), so the softmax inside SDPA runs over the keys; the register token skips the rotary embedding on both sides, as the sin/cos tables cover only the H x W patches
# looks-like: ATT003, ATT004, ATT005
# source: https://github.com/lightly-ai/lightly-train https://github.com/lightly-ai/lightly-train/commit/d445dcd5e9009b7a4ccb97281e26590fd38ae6cf src/lightly_train/_models/ecvit/ecvit.py
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


def half_rotation(x: Tensor) -> Tensor:
    first, second = x.chunk(2, dim=-1)
    return torch.cat((-second, first), dim=-1)


def rotary(x: Tensor, sin: Tensor, cos: Tensor) -> Tensor:
    return x * cos + half_rotation(x) * sin


class SelfAttention(nn.Module):
    def __init__(self, dim: int, num_heads: int = 8, qkv_bias: bool = False, attn_drop: float = 0.0, proj_drop: float = 0.0):
        super().__init__()
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.scale = head_dim**-0.5
        self.attn_dropout = attn_drop
        self.proj = nn.Linear(dim, dim)
        self.out_drop = nn.Dropout(proj_drop)

    def forward(self, x: Tensor, sincos: tuple[Tensor, Tensor] | None = None) -> Tensor:
        B, N, C = x.shape
        q, k, v = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).unbind(2)
        q, k, v = (t.transpose(1, 2) for t in (q, k, v))

        if sincos is not None:
            sin, cos = sincos
            q = torch.cat((q[:, :, :1], rotary(q[:, :, 1:], sin, cos)), dim=2)
            k = torch.cat((k[:, :, :1], rotary(k[:, :, 1:], sin, cos)), dim=2)

        x = F.scaled_dot_product_attention(q, k, v, dropout_p=self.attn_dropout)
        x = x.transpose(1, 2).reshape(B, N, C)
        return self.out_drop(self.proj(x))


class EncoderBlock(nn.Module):
    def __init__(self, dim: int, num_heads: int, ffn_ratio: float = 4.0, qkv_bias: bool = False):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = SelfAttention(dim, num_heads=num_heads, qkv_bias=qkv_bias)
        self.norm2 = nn.LayerNorm(dim)
        hidden = int(dim * ffn_ratio)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.SiLU(), nn.Linear(hidden, dim))

    def forward(self, x: Tensor, sincos=None) -> Tensor:
        x = x + self.attn(self.norm1(x), sincos=sincos)
        return x + self.mlp(self.norm2(x))


class RegisterViT(nn.Module):
    def __init__(self, patch_embed: nn.Module, rope_table, dim: int = 192, depth: int = 12, num_heads: int = 3,
                 taps: tuple[int, ...] = (3, 7, 11)):
        super().__init__()
        self.patch_embed = patch_embed
        self.rope_table = rope_table  # callable (H, W) -> (sin, cos) of shape (H * W, head_dim)
        self.register_token = nn.Parameter(torch.zeros(1, 1, dim))
        self.blocks = nn.ModuleList(EncoderBlock(dim, num_heads) for _ in range(depth))
        self.taps = set(taps)

    def forward(self, images: Tensor) -> tuple[list[Tensor], tuple[int, int]]:
        feats = self.patch_embed(images)  # (B, dim, H, W)
        _, _, H, W = feats.shape
        tokens = feats.flatten(2).transpose(1, 2)
        x = torch.cat((self.register_token.expand(tokens.shape[0], -1, -1), tokens), dim=1)
        sin, cos = self.rope_table(H=H, W=W)
        sincos = (sin.to(tokens)[None, None], cos.to(tokens)[None, None])
        outputs = []
        for i, block in enumerate(self.blocks):
            x = block(x, sincos=sincos)
            if i in self.taps:
                outputs.append(x[:, 1:])
        return outputs, (H, W)
