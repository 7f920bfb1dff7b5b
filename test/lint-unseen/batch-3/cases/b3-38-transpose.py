# case: b3-38-transpose
# modelled-on: Dhamu785/Vision-Transformers https://github.com/Dhamu785/Vision-Transformers/commit/a0bfb37a8ec6f81b5725e00efe83f57ae5c59492
# label: buggy
# class: real-bug
# pattern: a ViT multi-head self-attention written step by step with shape comments: one qkv projection reshaped to (samples, patches, 3, heads, head_dim) and permuted to (3, samples, heads, patches, head_dim); the module defines self.scale = head_dim ** -0.5 in __init__; scores q @ k^T, softmax over the last axis
# why: k is 4-D (samples, heads, patches, head_dim) and k.transpose(1, 2) swaps heads and patches instead of the last two axes, so q @ k is not q k^T (commit a0bfb37 changes it to transpose(-2, -1), matching the line's own shape comment); and the scale the module defines is never applied, so the softmax receives unscaled scores (commit 1b667d8 multiplies by self.scale)
# source: https://github.com/Dhamu785/Vision-Transformers https://github.com/Dhamu785/Vision-Transformers/commit/a0bfb37a8ec6f81b5725e00efe83f57ae5c59492 01_ViT/MHA.py
import torch as t
import torch.nn as nn


class MHA(nn.Module):
    def __init__(self, dim: int, num_heads: int, qkv_bias: bool, att_drop: float, proj_drop: float) -> None:
        super().__init__()
        self.dim = dim
        self.num_heads = num_heads
        self.head_dim = dim // num_heads
        self.scale = self.head_dim ** -0.5

        self.qkv = nn.Linear(dim, 3 * dim, bias=qkv_bias)
        self.att_d = nn.Dropout(att_drop)
        self.proj = nn.Linear(dim, dim)
        self.proj_d = nn.Dropout(proj_drop)

    def forward(self, x: t.Tensor) -> t.Tensor:
        n_sample, patches, dim = x.shape
        if dim != self.dim:
            raise ValueError

        qkv: t.Tensor = self.qkv(x)  # n_samples, patches, 3*dim
        qkv = qkv.reshape(n_sample, patches, 3, self.num_heads, self.head_dim)
        qkv = qkv.permute(2, 0, 3, 1, 4)  # qkv, n_samples, num_heads, patches, head_dim
        q, k, v = qkv[0], qkv[1], qkv[2]
        weights: t.Tensor = q @ k.transpose(1, 2)  # n_samples, num_heads, num_patches, num_patches  # expect: ATT005
        dropped_weights: t.Tensor = self.att_d(weights.softmax(-1))  # expect: ATT003
        weighted_value: t.Tensor = dropped_weights @ v  # n_samples, num_heads, num_patches, head_dim
        v_t: t.Tensor = weighted_value.transpose(1, 2)  # n_samples, num_patches, num_heads, head_dim
        v_flatten: t.Tensor = v_t.flatten(2)  # n_samples, num_patches, dimension
        return self.proj_d(self.proj(v_flatten))


if __name__ == "__main__":
    x: t.Tensor = t.randn(8, 16, 24)
    print(MHA(24, 6, True, 0.2, 0.2)(x).shape)
