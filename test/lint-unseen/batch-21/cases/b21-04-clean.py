# case: b21-04-clean
# modelled-on: akozlovskaya/mspe-graph-transformer https://github.com/akozlovskaya/mspe-graph-transformer/commit/8a2d976a82b6b9c3ea74efac200d487f8aea731e
# label: correct
# class: clean
# pattern: a graph transformer (multi-scale positional encodings) on PyG batches with no batch axis: node features (N, hidden) are split into heads-first (H, N, d_head) by view + transpose(0, 1); dense scores q @ k^T * head_dim ** -0.5 get an optional relative-PE bias (H, N, N), then a boolean "different graph" mask built from the batch vector (batch[:, None] != batch[None, :], True = masked) and an optional caller mask (True = masked), both applied with masked_fill(..., -inf) after unsqueeze(0) for the heads; softmax over the last axis followed by nan_to_num; a sparse variant scores each edge with (q[col] * k[row]).sum(-1) * scale and normalises with PyG's scatter softmax over the edges grouped by target node, then scatter-adds the weighted values
# why: correct: in the dense path the key axis is the last of (H, N, N), the masks are True where attention must be blocked (so masked_fill with -inf is the right polarity), every node shares a graph with itself so no row is fully masked (nan_to_num only guards the caller's mask); the sparse softmax normalises over each node's incoming edges, which is neighbourhood attention's key set; the scale is per head
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/akozlovskaya/mspe-graph-transformer https://github.com/akozlovskaya/mspe-graph-transformer/commit/8a2d976a82b6b9c3ea74efac200d487f8aea731e src/models/attention.py
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseGraphAttention(nn.Module):
    def __init__(self, hidden: int, heads: int, dropout: float = 0.1):
        super().__init__()
        assert hidden % heads == 0
        self.hidden = hidden
        self.heads = heads
        self.d_head = hidden // heads
        self.scale = self.d_head ** -0.5
        self.q = nn.Linear(hidden, hidden)
        self.k = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, hidden)
        self.o = nn.Linear(hidden, hidden)
        self.attn_drop = nn.Dropout(dropout)

    @staticmethod
    def cross_graph_mask(batch: torch.Tensor) -> torch.Tensor:
        # True where the two nodes belong to different graphs of the batch
        return batch.unsqueeze(1) != batch.unsqueeze(0)

    def forward(self, x, pe_bias: Optional[torch.Tensor] = None, blocked: Optional[torch.Tensor] = None,
                batch: Optional[torch.Tensor] = None):
        n = x.size(0)
        # [N, hidden] -> [N, H, d] -> [H, N, d]
        q = self.q(x).view(n, self.heads, self.d_head).transpose(0, 1)
        k = self.k(x).view(n, self.heads, self.d_head).transpose(0, 1)
        v = self.v(x).view(n, self.heads, self.d_head).transpose(0, 1)

        scores = torch.matmul(q, k.transpose(-2, -1)) * self.scale  # [H, N, N]
        if pe_bias is not None:
            scores = scores + pe_bias
        if batch is not None:
            scores = scores.masked_fill(self.cross_graph_mask(batch).unsqueeze(0), float("-inf"))
        if blocked is not None:
            scores = scores.masked_fill(blocked.unsqueeze(0), float("-inf"))

        weights = F.softmax(scores, dim=-1)
        weights = torch.nan_to_num(weights, nan=0.0)
        weights = self.attn_drop(weights)

        out = torch.matmul(weights, v).transpose(0, 1).contiguous().view(n, self.hidden)
        return self.o(out)


class EdgeGraphAttention(nn.Module):
    def __init__(self, hidden: int, heads: int, dropout: float = 0.1):
        super().__init__()
        self.hidden = hidden
        self.heads = heads
        self.d_head = hidden // heads
        self.scale = self.d_head ** -0.5
        self.q = nn.Linear(hidden, hidden)
        self.k = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, hidden)
        self.o = nn.Linear(hidden, hidden)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, edge_index, edge_bias: Optional[torch.Tensor] = None):
        from torch_geometric.utils import softmax as scatter_softmax

        n = x.size(0)
        src, dst = edge_index
        q = self.q(x).view(n, self.heads, self.d_head)
        k = self.k(x).view(n, self.heads, self.d_head)
        v = self.v(x).view(n, self.heads, self.d_head)

        scores = (q[dst] * k[src]).sum(dim=-1) * self.scale  # [E, H]
        if edge_bias is not None:
            scores = scores + edge_bias
        alpha = self.drop(scatter_softmax(scores, dst, num_nodes=n))  # over each node's incoming edges

        out = torch.zeros(n, self.heads, self.d_head, device=x.device)
        out.scatter_add_(0, dst.view(-1, 1, 1).expand(-1, self.heads, self.d_head), alpha.unsqueeze(-1) * v[src])
        return self.o(out.view(n, self.hidden))
