# case: b14-03-clean
# modelled-on: prescient-design/e3tools https://github.com/prescient-design/e3tools/commit/5f915e8320b0c0848fff9ad4a7a6192679917c36
# label: correct
# class: clean
# pattern: an equivariant graph attention layer (SE(3)-Transformer style) for molecules: queries per node, keys and values per edge from the source node, one scalar logit per edge from an e3nn tensor-product "dot" of query and key irreps, an optional per-edge keep mask applied with torch.where(mask[:, None], alpha, -inf), then a segment softmax over dim=0 grouped by each edge's destination node (a helper in another module that subtracts the segment max, guards empty segments and divides by the segment sum), and a scatter-sum of alpha * v back to the nodes
# why: correct: the tensor is (edges, 1), so dim=0 is the edge axis and the softmax is normalised per destination node by the index, which is what attention over a node's incoming edges is; the mask is True where an edge is kept (the layer's own masked-edge test and the causal-mask commit use it so) and -inf only where it is False, the helper resets a segment whose max is -inf to 0 and a zero sum to 1, so a fully masked node gets zeros, not NaN; the logit is a learned bilinear form whose paths e3nn normalises, and the paper's layer has no 1/sqrt(d) on it; what a naive linter could misread: ATT001 (softmax over dim=0), ATT003 (no explicit scale), ATT002 / ATT007 (a boolean mask and a -inf fill through torch.where)
# looks-like: ATT001, ATT002, ATT003, ATT007
# source: https://github.com/prescient-design/e3tools https://github.com/prescient-design/e3tools/commit/5f915e8320b0c0848fff9ad4a7a6192679917c36 src/e3tools/nn/_transformer.py
from typing import Tuple

import e3nn
import e3nn.o3
import torch
from torch import nn

from equi.segments import segment_softmax, segment_sum


class GraphAttention(nn.Module):
    def __init__(self, irreps_in, irreps_out, irreps_query, irreps_key, return_attention: bool = False):
        super().__init__()
        self.irreps_in = e3nn.o3.Irreps(irreps_in)
        self.return_attention = return_attention
        self.h_q = e3nn.o3.Linear(irreps_in, irreps_query)
        self.h_k = e3nn.o3.Linear(irreps_in, irreps_key)
        self.h_v = e3nn.o3.Linear(irreps_in, irreps_out)
        # one scalar (0e) per edge: a learned, path-normalised bilinear form of query and key
        self.dot = e3nn.o3.FullyConnectedTensorProduct(irreps_query, irreps_key, "0e")

    def forward(
        self,
        node_attr: torch.Tensor,  # (N, irreps_in.dim)
        edge_index: torch.Tensor,  # (2, E)
        mask: torch.Tensor | None = None,  # (E,) True = edge kept
    ) -> torch.Tensor | Tuple[torch.Tensor, torch.Tensor]:
        N = node_attr.shape[0]
        src, dst = edge_index
        q = self.h_q(node_attr)
        k = self.h_k(node_attr[src])
        v = self.h_v(node_attr[src])

        alpha = self.dot(q[dst], k)  # (E, 1)
        if mask is not None:
            alpha = torch.where(mask[:, None], alpha, torch.full_like(alpha, float("-inf")))
        alpha = segment_softmax(alpha, dst, dim=0, dim_size=N)

        out = segment_sum(alpha * v, dst, dim=0, dim_size=N)
        if self.return_attention:
            return out, alpha
        return out
