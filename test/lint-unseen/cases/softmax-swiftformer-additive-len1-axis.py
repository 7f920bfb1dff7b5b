# case: softmax-swiftformer-additive-len1-axis
# modelled-on: Amshaker/SwiftFormer https://github.com/Amshaker/SwiftFormer/issues/4
# label: buggy
# class: real-bug
# pattern: additive attention whose global query weights come from an nn.Parameter of shape (D, 1), so the scores are (B, N, 1); the tokens were flattened from (B, C, H, W) by permute + reshape in the caller
# why: the softmax runs over the trailing length-1 axis, so every weight is exactly 1 and the "attention" is a plain sum over tokens; the maintainer confirmed the softmax must be over the token axis (dim=1) and replaced it
# source: https://github.com/Amshaker/SwiftFormer https://github.com/Amshaker/SwiftFormer/commit/574907f49b72c975634673e8cf5b6b9bfc7c1114 models/swiftformer.py
import torch
import torch.nn as nn
import einops
from timm.models.layers import DropPath

CoreMLConversion = False


class EfficientAdditiveAttention(nn.Module):
    """
    Efficient additive attention.
    Input: tensor in shape [B, N, D]
    Output: tensor in shape [B, N, D]
    """

    def __init__(self, in_dims=512, token_dim=256, num_heads=2):
        super().__init__()
        self.to_query = nn.Linear(in_dims, token_dim * num_heads)
        self.to_key = nn.Linear(in_dims, token_dim * num_heads)

        self.w_g = nn.Parameter(torch.randn(token_dim * num_heads, 1))
        self.scale_factor = token_dim ** -0.5
        self.proj = nn.Linear(token_dim * num_heads, token_dim * num_heads)
        self.final = nn.Linear(token_dim * num_heads, token_dim)

    def forward(self, x):
        query = self.to_query(x)
        key = self.to_key(x)

        if not CoreMLConversion:
            # F.normalize is not supported on the phone's neural engine
            query = torch.nn.functional.normalize(query, dim=-1)
            key = torch.nn.functional.normalize(key, dim=-1)

        query_weight = query @ self.w_g
        A = query_weight * self.scale_factor

        A = A.softmax(dim=-1)  # expect: ATT001

        G = torch.sum(A * query, dim=1)

        G = einops.repeat(G, "b d -> b repeat d", repeat=key.shape[1])

        out = self.proj(G * key) + query
        out = self.final(out)
        return out


class SwiftEncoderBlock(nn.Module):
    """Input and output: [B, C, H, W]."""

    def __init__(self, dim, drop_path=0.0, layer_scale_init_value=1e-5):
        super().__init__()
        self.attn = EfficientAdditiveAttention(in_dims=dim, token_dim=dim, num_heads=1)
        self.drop_path = DropPath(drop_path) if drop_path > 0.0 else nn.Identity()
        self.layer_scale_1 = nn.Parameter(
            layer_scale_init_value * torch.ones(dim).unsqueeze(-1).unsqueeze(-1), requires_grad=True)

    def forward(self, x):
        B, C, H, W = x.shape
        tokens = x.permute(0, 2, 3, 1).reshape(B, H * W, C)
        mixed = self.attn(tokens).reshape(B, H, W, C).permute(0, 3, 1, 2)
        return x + self.drop_path(self.layer_scale_1 * mixed)
