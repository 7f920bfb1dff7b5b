# case: softmax-swiftformer-param-column-dim1
# modelled-on: Amshaker/SwiftFormer https://github.com/Amshaker/SwiftFormer/issues/4
# label: correct
# pattern: efficient additive attention; the global query weights come from q @ w_g with w_g = nn.Parameter(torch.randn(D, 1)), so the scores are [B, N, 1], scaled, then softmax(dim=1)
# why: the softmax runs over dim=1, the N tokens, as the maintainer said it should; the length-1 axis from w_g is left alone
# looks-like: ATT001, ATT003
import einops
import torch
import torch.nn as nn


class EfficientAdditiveAttention(nn.Module):
    """Input [B, N, D] -> output [B, N, D]."""

    def __init__(self, in_dims: int = 512, token_dim: int = 256, num_heads: int = 2):
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
        query = torch.nn.functional.normalize(query, dim=-1)
        key = torch.nn.functional.normalize(key, dim=-1)

        query_weight = query @ self.w_g
        A = query_weight * self.scale_factor
        A = A.softmax(dim=1)

        G = torch.sum(A * query, dim=1)
        G = einops.repeat(G, "b d -> b repeat d", repeat=key.shape[1])
        out = self.proj(G * key) + query
        return self.final(out)
