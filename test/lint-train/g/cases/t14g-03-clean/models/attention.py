# case: t14g-03-clean
# modelled-on: Samruddhi2212/vit-from-scratch https://github.com/Samruddhi2212/vit-from-scratch/commit/193e9a31695c24c6a895fea3a8fabccb589b7d4c
# label: correct
# class: clean
# pattern: a from-scratch ViT for CIFAR-10 and change detection with an ablation study: the multi-head attention fuses Q, K and V in one Linear(D, 3D), reshapes to (B, N, 3, heads, head_dim), permutes to (3, B, heads, N, head_dim) and unbinds; the scale is head_dim ** -0.5 unless the layer was built with use_scaling=False, in which case it is 1.0; an ablation runner (another module) trains a baseline ViT and a "no sqrt(d_k) scaling" variant from the same config; a standalone helper takes a scale flag the same way
# why: correct: after the permute the keys are (B, heads, N, head_dim), so k.transpose(-2, -1) is the key transpose, head_dim ** -0.5 is the per-head scale and the softmax over dim=-1 runs over the N keys; the unscaled path is a deliberate, named ablation (the runner describes it as "remove sqrt(d_k) scaling") and the default builds the scaled layer; what a naive linter could misread: ATT003 (a scale that can be 1.0, a helper with scale=False), ATT004 (a scale held in an attribute), ATT005 / ATT001 (a 5-D permute before the scores)
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/Samruddhi2212/vit-from-scratch https://github.com/Samruddhi2212/vit-from-scratch/commit/193e9a31695c24c6a895fea3a8fabccb589b7d4c models/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_dot_product_attention(Q, K, V, dropout: nn.Dropout | None = None, scale: bool = True):
    """Q, K, V: (B, heads, N, d_k); scale=False only for the ablation."""
    d_k = Q.shape[-1]
    scores = torch.matmul(Q, K.transpose(-2, -1))
    if scale:
        scores = scores / math.sqrt(d_k)
    weights = F.softmax(scores, dim=-1)
    if dropout is not None:
        weights = dropout(weights)
    return torch.matmul(weights, V), weights


class MultiHeadAttention(nn.Module):
    def __init__(self, embed_dim: int = 768, num_heads: int = 12, dropout: float = 0.0, qkv_bias: bool = True, use_scaling: bool = True):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scale = self.head_dim**-0.5
        self.use_scaling = use_scaling
        self.qkv = nn.Linear(embed_dim, embed_dim * 3, bias=qkv_bias)
        self.proj = nn.Linear(embed_dim, embed_dim)
        self.attn_dropout = nn.Dropout(dropout)
        self.proj_dropout = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, self.head_dim)
        qkv = qkv.permute(2, 0, 3, 1, 4)  # (3, B, heads, N, head_dim)
        q, k, v = qkv.unbind(0)
        scale = self.scale if self.use_scaling else 1.0
        attn = (q @ k.transpose(-2, -1)) * scale
        attn = attn.softmax(dim=-1)
        weights = attn
        attn = self.attn_dropout(attn)
        x = (attn @ v).transpose(1, 2).contiguous().reshape(B, N, C)
        return self.proj_dropout(self.proj(x)), weights
