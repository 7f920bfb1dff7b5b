# case: softmax-swiftformer-additive-normalize-tokens
# modelled-on: Amshaker/SwiftFormer https://github.com/Amshaker/SwiftFormer/issues/4
# label: correct
# class: fixed
# pattern: the same additive attention after the fix: the (B, N, 1) global query weights are normalised over the token axis (dim=1), with a shape comment on every step
# why: after the fix the weights are normalised over the N tokens (an L2 normalisation, which the maintainer chose instead of softmax(dim=1)); nothing reduces over the length-1 axis any more
# looks-like: ATT001, ATT003
# source: https://github.com/Amshaker/SwiftFormer https://github.com/Amshaker/SwiftFormer/commit/670dea3e1fa96f59ba47bb4d3334122bfc344f29 models/swiftformer.py
import torch
import torch.nn as nn
import einops
from timm.models.layers import DropPath


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

        query = torch.nn.functional.normalize(query, dim=-1)  # BxNxD
        key = torch.nn.functional.normalize(key, dim=-1)  # BxNxD

        query_weight = query @ self.w_g  # BxNx1 (BxNxD @ Dx1)
        A = query_weight * self.scale_factor  # BxNx1

        A = torch.nn.functional.normalize(A, dim=1)  # BxNx1, over the N tokens

        G = torch.sum(A * query, dim=1)  # BxD

        G = einops.repeat(G, "b d -> b repeat d", repeat=key.shape[1])  # BxNxD

        out = self.proj(G * key) + query  # BxNxD
        out = self.final(out)  # BxNxD
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
