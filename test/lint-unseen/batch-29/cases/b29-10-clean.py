# case: b29-10-clean
# modelled-on: nguyenlog205/uit-ds201-hand-sign-recognition https://github.com/nguyenlog205/uit-ds201-hand-sign-recognition/commit/cf4dfbb4fdfff0a2204ff7b45a4497b653af45da
# label: correct
# class: clean
# pattern: course-project sign-language recognition from skeleton keypoints with a PoseFormer adaptation: a spatial transformer over the joints of each frame (width embed_dim_ratio) and a temporal transformer over frames (width embed_dim_ratio * num_joints), both built from one Attention class: fused nn.Linear(dim, dim * 3), reshape(B, N, 3, heads, C // heads).permute(2, 0, 3, 1, 4), (q @ k.transpose(-2, -1)) * self.scale with self.scale = qk_scale or head_dim ** -0.5 and head_dim = dim // num_heads, softmax over dim=-1
# why: correct: each Attention is built with the width of the tokens it sees (dim = embed_dim_ratio for joints, embed_dim for frames), so head_dim = dim // num_heads is the per-head width that the product sums over and the scale is 1/sqrt of it; qk_scale is None in every construction; the softmax runs over the key axis; no mask because every joint and frame of the fixed window is present
# looks-like: ATT001, ATT004
# source: https://github.com/nguyenlog205/uit-ds201-hand-sign-recognition https://github.com/nguyenlog205/uit-ds201-hand-sign-recognition/commit/cf4dfbb4fdfff0a2204ff7b45a4497b653af45da src/model/poseformer/poseformer.py
from functools import partial

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, dim, num_heads=8, qkv_bias=False, qk_scale=None, attn_drop=0.0, proj_drop=0.0):
        super().__init__()
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = qk_scale or head_dim**-0.5
        self.qkv = nn.Linear(dim, dim * 3, bias=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        B, N, C = x.shape
        qkv = self.qkv(x).reshape(B, N, 3, self.num_heads, C // self.num_heads).permute(2, 0, 3, 1, 4)
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q @ k.transpose(-2, -1)) * self.scale
        attn = attn.softmax(dim=-1)
        attn = self.attn_drop(attn)
        x = (attn @ v).transpose(1, 2).reshape(B, N, C)
        x = self.proj(x)
        return self.proj_drop(x)


class Block(nn.Module):
    def __init__(self, dim, num_heads, mlp_ratio=4.0, qkv_bias=False, qk_scale=None, drop=0.0, attn_drop=0.0, norm_layer=nn.LayerNorm):
        super().__init__()
        self.norm1 = norm_layer(dim)
        self.attn = Attention(dim, num_heads=num_heads, qkv_bias=qkv_bias, qk_scale=qk_scale, attn_drop=attn_drop, proj_drop=drop)
        self.norm2 = norm_layer(dim)
        hidden = int(dim * mlp_ratio)
        self.mlp = nn.Sequential(nn.Linear(dim, hidden), nn.GELU(), nn.Dropout(drop), nn.Linear(hidden, dim), nn.Dropout(drop))

    def forward(self, x):
        x = x + self.attn(self.norm1(x))
        x = x + self.mlp(self.norm2(x))
        return x


class PoseFormer(nn.Module):
    def __init__(self, num_frame=64, num_joints=27, in_chans=3, embed_dim_ratio=32, depth=4, num_heads=8, mlp_ratio=2.0,
                 qkv_bias=True, qk_scale=None, drop_rate=0.1, attn_drop_rate=0.1, num_class=100):
        super().__init__()
        norm_layer = partial(nn.LayerNorm, eps=1e-6)
        embed_dim = embed_dim_ratio * num_joints
        self.embed_dim_ratio = embed_dim_ratio
        self.Spatial_patch_to_embedding = nn.Linear(in_chans, embed_dim_ratio)
        self.Spatial_pos_embed = nn.Parameter(torch.zeros(1, num_joints, embed_dim_ratio))
        self.Temporal_pos_embed = nn.Parameter(torch.zeros(1, num_frame, embed_dim))
        self.Spatial_blocks = nn.ModuleList([
            Block(dim=embed_dim_ratio, num_heads=num_heads, mlp_ratio=mlp_ratio, qkv_bias=qkv_bias, qk_scale=qk_scale,
                  drop=drop_rate, attn_drop=attn_drop_rate, norm_layer=norm_layer)
            for _ in range(depth)])
        self.blocks = nn.ModuleList([
            Block(dim=embed_dim, num_heads=num_heads, mlp_ratio=mlp_ratio, qkv_bias=qkv_bias, qk_scale=qk_scale,
                  drop=drop_rate, attn_drop=attn_drop_rate, norm_layer=norm_layer)
            for _ in range(depth)])
        self.Spatial_norm = norm_layer(embed_dim_ratio)
        self.Temporal_norm = norm_layer(embed_dim)
        self.head = nn.Linear(embed_dim, num_class)

    def forward(self, x):
        b, c, f, p = x.shape
        x = x.permute(0, 2, 3, 1).contiguous().view(b * f, p, c)
        x = self.Spatial_patch_to_embedding(x) + self.Spatial_pos_embed
        for blk in self.Spatial_blocks:
            x = blk(x)
        x = self.Spatial_norm(x).view(b, f, p * self.embed_dim_ratio)
        x = x + self.Temporal_pos_embed
        for blk in self.blocks:
            x = blk(x)
        x = self.Temporal_norm(x).mean(dim=1)
        return self.head(x)
