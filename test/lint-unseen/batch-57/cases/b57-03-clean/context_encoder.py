from typing import Sequence

import torch
from torch import nn

from local_attention import NeighbourAttention


def neighbour_pairs(xy: torch.Tensor, scene: torch.Tensor, k: int) -> torch.Tensor:
    """xy: (N, 2) positions of stacked tokens, scene: (N,) batch index of each token.

    Returns (N, k) indices of the k closest tokens of the same scene (the token itself
    first), padded with -1 when a scene holds fewer than k tokens.
    """
    dist = torch.cdist(xy, xy)
    dist = dist.masked_fill(scene[:, None] != scene[None, :], float("inf"))
    take = min(k, xy.shape[0])
    near, idx = dist.topk(take, dim=1, largest=False)
    idx = idx.masked_fill(torch.isinf(near), -1)
    if take < k:
        idx = torch.cat([idx, idx.new_full((idx.shape[0], k - take), -1)], dim=1)
    return idx


class LocalContextEncoder(nn.Module):
    def __init__(self, dim: int = 256, heads: int = 8, depth: int = 6, k: int = 16):
        super().__init__()
        self.k = k
        self.layers = nn.ModuleList(NeighbourAttention(dim, heads) for _ in range(depth))
        self.norms = nn.ModuleList(nn.LayerNorm(dim) for _ in range(depth))

    def forward(self, tokens: torch.Tensor, valid: torch.Tensor, pos: torch.Tensor) -> torch.Tensor:
        """tokens (B, N, D), valid (B, N) bool with at least one True per scene, pos (B, N, 3)."""
        b, n, d = tokens.shape
        flat, keep = tokens.reshape(b * n, d), valid.reshape(b * n)
        scene = torch.arange(b, device=tokens.device).repeat_interleave(n)
        x = flat[keep]
        pairs = neighbour_pairs(pos.reshape(b * n, -1)[keep, :2], scene[keep], self.k)
        for attn, norm in zip(self.layers, self.norms):
            x = norm(x + attn(x, pairs)[0])
        out = torch.zeros_like(flat)
        out[keep] = x
        return out.view(b, n, d)
