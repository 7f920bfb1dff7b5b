# case: b54-09-clean
# modelled-on: ADiko1997/S-GEAR https://github.com/ADiko1997/S-GEAR/commit/62f09eacc6f7062fa9a5144e077aaed8b26382da
# label: correct
# class: clean
# pattern: per-frame attention across modalities in an action-anticipation model (a folder: the attention module that takes (batch, frames, modalities, dim), folds frames into the batch, projects to qkv, multiplies the queries by head_dim ** -0.5 and softmaxes the (B*T, heads, M, M) scores over the last axis; and the fusion step that stacks the visual feature with the other modalities' features on dim 2, runs the attention and adds the visual token's output back through a learned, temperature-scaled balance)
# why: correct: the tokens attended over are the M modalities of one frame, which are the last axis of the (B*T, heads, M, M) product, so softmax(dim=-1) is over the keys; the scale is 1/sqrt(head_dim) applied to the queries, head_dim = dim // num_heads; every modality is present for every frame, so nothing is masked; the balance weight multiplies the attention module's output, not the attention weights
# looks-like: ATT001, ATT003, ATT006
# source: https://github.com/ADiko1997/S-GEAR https://github.com/ADiko1997/S-GEAR/commit/62f09eacc6f7062fa9a5144e077aaed8b26382da models/attention.py
import torch.nn as nn


class CrossModalityAttention(nn.Module):
    def __init__(self, dim=768, num_heads=12, qkv_bias=False, qk_norm=False, attn_drop=0.0, proj_drop=0.0):
        super().__init__()
        assert dim % num_heads == 0, "dim must be divisible by num_heads"
        self.h = num_heads
        self.hd = dim // num_heads
        self.scale = self.hd ** -0.5
        self.qkv = nn.Linear(dim, 3 * dim, bias=qkv_bias)
        self.qn = nn.LayerNorm(self.hd) if qk_norm else nn.Identity()
        self.kn = nn.LayerNorm(self.hd) if qk_norm else nn.Identity()
        self.drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        b, t, m, c = x.shape  # batch, frames, modalities, dim
        x = x.reshape(b * t, m, c)
        q, k, v = self.qkv(x).reshape(b * t, m, 3, self.h, self.hd).permute(2, 0, 3, 1, 4).unbind(0)
        q, k = self.qn(q) * self.scale, self.kn(k)
        w = self.drop((q @ k.transpose(-2, -1)).softmax(dim=-1))  # (B*T, heads, M, M)
        y = (w @ v).transpose(1, 2).reshape(b, t, m, c)
        return self.proj_drop(self.proj(y))
