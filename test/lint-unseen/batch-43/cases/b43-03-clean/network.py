import torch
from torch import nn

from neighbour_attention import NeighbourAttention


class NeighbourNetwork(nn.Module):
    def __init__(self, *, dim, depth, dim_head=64, heads=4, max_neighbours=None):
        super().__init__()
        self.max_neighbours = max_neighbours
        self.blocks = nn.ModuleList([])
        for _ in range(depth):
            self.blocks.append(nn.ModuleList([
                nn.LayerNorm(dim),
                NeighbourAttention(dim=dim, dim_head=dim_head, heads=heads),
                nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim)),
            ]))

    def forward(self, x, adjacency, node_mask=None):
        n = x.shape[1]
        adjacency = adjacency | torch.eye(n, device=x.device, dtype=torch.bool)
        if node_mask is not None:
            adjacency = adjacency & (node_mask[:, :, None] & node_mask[:, None, :])

        adj = adjacency.float()
        widest = int(adj.sum(dim=-1).max())
        if self.max_neighbours is not None and widest > self.max_neighbours:
            jitter = torch.empty((n, n), device=x.device).uniform_(-0.01, 0.01)
            slot_vals, slot_idx = (adj + jitter).topk(dim=-1, k=self.max_neighbours)
            slot_mask = (slot_vals > 0.5).float()
        else:
            slot_mask, slot_idx = adj.topk(dim=-1, k=widest)

        for norm, attn, ff in self.blocks:
            x = attn(norm(x), neighbour_idx=slot_idx, neighbour_mask=slot_mask) + x
            x = ff(x) + x
        return x
