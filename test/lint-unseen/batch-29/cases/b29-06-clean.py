# case: b29-06-clean
# modelled-on: jayphone17/ViT-Related https://github.com/jayphone17/ViT-Related/commit/60a5e835787551406b76a7bc24b0acaa476393c8
# label: correct
# class: clean
# pattern: a PaddlePaddle re-implementation of the ViT multi-head attention: fused nn.Linear(dim, dim * 3), reshape to (-1, N, 3, heads, C // heads) and transpose((2, 0, 3, 1, 4)), q.matmul(k.transpose((0, 1, 3, 2))) * self.scale with self.scale = qk_scale or head_dim ** -0.5, nn.functional.softmax(attn, axis=-1), dropout, weights matmul v, heads merged and projected
# why: correct: Paddle's transpose takes a full permutation, and (0, 1, 3, 2) swaps the token and feature axes of k (B, heads, N, head_dim), so the product is (B, heads, N, N); the scale is 1/sqrt of one head's width; Paddle's softmax takes axis=, and -1 is the key axis; no mask for image patches
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/jayphone17/ViT-Related https://github.com/jayphone17/ViT-Related/commit/60a5e835787551406b76a7bc24b0acaa476393c8 Attention.py
import paddle.nn as nn


class Attention(nn.Layer):
    def __init__(self, dim, num_heads=8, qkv_bias=False, qk_scale=None, attn_drop=0.0, proj_drop=0.0):
        super().__init__()
        self.num_heads = num_heads
        head_dim = dim // num_heads
        self.scale = qk_scale or head_dim**-0.5
        self.qkv = nn.Linear(dim, dim * 3, bias_attr=qkv_bias)
        self.attn_drop = nn.Dropout(attn_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_drop = nn.Dropout(proj_drop)

    def forward(self, x):
        N, C = x.shape[1:]
        qkv = self.qkv(x).reshape((-1, N, 3, self.num_heads, C // self.num_heads)).transpose((2, 0, 3, 1, 4))
        q, k, v = qkv[0], qkv[1], qkv[2]
        attn = (q.matmul(k.transpose((0, 1, 3, 2)))) * self.scale
        attn = nn.functional.softmax(attn, axis=-1)
        attn = self.attn_drop(attn)
        x = (attn.matmul(v)).transpose((0, 2, 1, 3)).reshape((-1, N, C))
        x = self.proj(x)
        x = self.proj_drop(x)
        return x
