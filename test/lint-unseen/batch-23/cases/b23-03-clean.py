# case: b23-03-clean
# modelled-on: vixrino/point-transformer-shapenet https://github.com/vixrino/point-transformer-shapenet/commit/8919414cc5950082dbe012b3d798cb18dc2dff3b
# label: correct
# class: clean
# pattern: a Point Transformer layer on a k-NN edge list (torch_geometric style): features are flattened to (N_points, C), a pure-PyTorch k-NN builds edge_index (row = neighbour j, col = centre i), per-edge vector logits gamma(q_i - k_j + rho) are (E, C), and torch_geometric.utils.softmax(logits, index=col, dim=0) normalises them, then scatter(..., col, dim=0, reduce="sum") aggregates the messages per centre
# why: correct: with one row per edge, dim=0 is the edge axis and index=col groups the edges by their centre point, so the segment softmax normalises each centre's incoming neighbours (the keys) per channel, exactly what the scatter-sum then aggregates; dim=0 is not a batch axis here; vector attention has no 1/sqrt(d) scale in the paper
# looks-like: ATT001, ATT003
# source: https://github.com/vixrino/point-transformer-shapenet https://github.com/vixrino/point-transformer-shapenet/commit/8919414cc5950082dbe012b3d798cb18dc2dff3b models/point_transformer.py
from __future__ import annotations

import torch
import torch.nn as nn
from torch_geometric.utils import scatter, softmax


def knn_edges(pos: torch.Tensor, k: int, batch: torch.Tensor | None) -> torch.Tensor:
    """Directed k-NN graph j -> i per cloud, self loops included; returns edge_index [2, N * k]."""
    if batch is None:
        batch = torch.zeros(pos.size(0), dtype=torch.long, device=pos.device)
    rows, cols = [], []
    for b in batch.unique():
        idx = (batch == b).nonzero(as_tuple=False).view(-1)
        pts = pos[idx]
        kk = min(k, pts.size(0))
        _, nn_idx = torch.cdist(pts, pts).topk(kk, dim=-1, largest=False)
        cols.append(idx.unsqueeze(1).expand(-1, kk).reshape(-1))  # centre i
        rows.append(idx[nn_idx].reshape(-1))  # neighbour j
    return torch.stack([torch.cat(rows), torch.cat(cols)], dim=0)


def mlp(c_in: int, c_out: int) -> nn.Sequential:
    return nn.Sequential(nn.Linear(c_in, c_out), nn.BatchNorm1d(c_out), nn.ReLU(inplace=True), nn.Linear(c_out, c_out))


class PointTransformerLayer(nn.Module):
    def __init__(self, c_in: int, c_out: int, k: int = 16) -> None:
        super().__init__()
        self.k = k
        self.to_q = nn.Linear(c_in, c_out)
        self.to_k = nn.Linear(c_in, c_out)
        self.to_v = nn.Linear(c_in, c_out)
        self.rho = mlp(3, c_out)  # relative position encoding
        self.gamma = mlp(c_out, c_out)  # vector attention logits
        self.proj = nn.Linear(c_out, c_out)

    def forward(self, x: torch.Tensor, pos: torch.Tensor, batch: torch.Tensor | None) -> torch.Tensor:
        # x: [N, c_in], pos: [N, 3]
        row, col = knn_edges(pos, self.k, batch)
        q_i = self.to_q(x)[col]
        k_j = self.to_k(x)[row]
        v_j = self.to_v(x)[row]
        rel = self.rho(pos[col] - pos[row])

        logits = self.gamma(q_i - k_j + rel)  # [E, c_out]
        attn = softmax(logits, index=col, dim=0)
        msg = attn * (v_j + rel)
        out = scatter(msg, col, dim=0, dim_size=x.size(0), reduce="sum")
        return self.proj(out)


class PointTransformerBlock(nn.Module):
    def __init__(self, channels: int, k: int = 16) -> None:
        super().__init__()
        self.fc_in = nn.Linear(channels, channels)
        self.layer = PointTransformerLayer(channels, channels, k)
        self.fc_out = nn.Linear(channels, channels)
        self.act = nn.ReLU(inplace=True)

    def forward(self, x: torch.Tensor, pos: torch.Tensor, batch: torch.Tensor | None) -> torch.Tensor:
        h = self.act(self.fc_in(x))
        h = self.act(self.layer(h, pos, batch))
        return x + self.fc_out(h)
