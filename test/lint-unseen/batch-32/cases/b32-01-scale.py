# case: b32-01-scale
# modelled-on: yusung410/Vision-Transformer-Challenge https://github.com/yusung410/Vision-Transformer-Challenge/commit/01987c568be262fdf5ebd97c7301a32227276b8f
# label: buggy
# class: real-bug
# pattern: a from-scratch ViT for CIFAR-10 (course challenge, no pretraining): MSA builds one nn.Linear(dim, dim * 3) for q, k and v, reshapes its output to (B, N, 3, heads, C // heads) and permutes it to (3, B, heads, N, head_dim), unbinds q, k, v, forms q @ k.transpose(-2, -1), takes attn.softmax(dim=-1), applies dropout and reprojects (attn @ v); __init__ computes self.scale = head_dim ** -0.5 with the comment that it normalises by the head dimension
# why: buggy: the scale is computed in __init__ ("normalise by each head's dimension") and never applied, so the raw dot products of 16-wide heads reach the softmax unscaled (the ViT attention this reimplements multiplies them by head_dim ** -0.5); the same code is in both versions of the file in the repository. The softmax axis (keys), the key transpose and the head split are right
# source: https://github.com/yusung410/Vision-Transformer-Challenge https://github.com/yusung410/Vision-Transformer-Challenge/commit/01987c568be262fdf5ebd97c7301a32227276b8f vit/msa.py
import torch
import torch.nn as nn


class MSA(nn.Module):
    def __init__(self, dim=192, num_heads=12, qkv_bias=False, attn_drop=0., proj_drop=0.):
        super().__init__()
        assert dim % num_heads == 0  # dim must split evenly over the heads

        self.num_heads = num_heads
        head_dim = dim // num_heads  # width of one head
        self.scale = head_dim ** -0.5  # normalise by the head dimension

        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)  # q, k and v from one projection
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        B, N, C = x.shape  # [batch, patches + 1, channels]
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv.unbind(0)
        attn = (q @ k.transpose(-2, -1))  # attention scores from Q K^T

        attn = attn.softmax(dim=-1)  # expect: ATT003
        attn = self.attn_drop(attn)

        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        x = self.proj(x)
        x = self.proj_drop(x)
        return x


class MLP(nn.Module):
    def __init__(self, dim=192, hidden=768, drop=0.):
        super().__init__()
        self.fc1 = nn.Linear(dim, hidden)
        self.act = nn.GELU()
        self.fc2 = nn.Linear(hidden, dim)
        self.drop = nn.Dropout(drop)

    def forward(self, x):
        return self.drop(self.fc2(self.drop(self.act(self.fc1(x)))))


class TransformerEncoder(nn.Module):
    def __init__(self, dim=192, num_heads=12, mlp_ratio=4, drop=0.):
        super().__init__()
        self.norm1 = nn.LayerNorm(dim)
        self.attn = MSA(dim, num_heads, attn_drop=drop, proj_drop=drop)
        self.norm2 = nn.LayerNorm(dim)
        self.mlp = MLP(dim, dim * mlp_ratio, drop)

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        x = x + self.mlp(self.norm2(x))
        return x
