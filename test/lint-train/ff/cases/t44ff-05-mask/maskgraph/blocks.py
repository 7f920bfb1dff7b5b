# case: t44ff-05-mask
# modelled-on: stevanna98/Masked-Graph-Attention https://github.com/stevanna98/Masked-Graph-Attention/commit/8f666e176484606a374f511fc35ad67e5168c45a
# label: buggy
# class: real-bug
# pattern: Set-Transformer blocks restricted to a graph: the heads are split into the batch (`cat(Q.split(d, 2), 0)`), the node mask repeated per head and applied as `masked_fill(M == 0, -inf)` (M read as a keep mask); the mask comes from another module, which marks the edges True and then returns `(~mask).to(uint8)` (1 on NON-edges); the training loop (a third module) hands that mask straight to the model. The scores are divided by sqrt(dim_V), the full width, while each head's dot product runs over dim_V / num_heads features
# why: buggy: the helper's mask is 1 where there is no edge and 0 on the graph's edges, and the attention fills the 0 entries with -inf, so every node attends to exactly the nodes it is NOT connected to (and to itself) and never to its neighbours, the opposite of the masked graph attention the model is named for; and the per-head scores are scaled by 1/sqrt(dim_V) instead of 1/sqrt(dim_V / num_heads), sqrt(num_heads) too small (the Set Transformer's reference code does the same; the project counts a full-width scale on per-head scores as ATT004)
# source: https://github.com/stevanna98/Masked-Graph-Attention https://github.com/stevanna98/Masked-Graph-Attention/commit/8f666e176484606a374f511fc35ad67e5168c45a modules_masked.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MaskedMAB(nn.Module):
    def __init__(self, dim_q, dim_k, dim_v, heads, ln=False):
        super().__init__()
        self.dim_v = dim_v
        self.heads = heads
        self.fq = nn.Linear(dim_q, dim_v)
        self.fk = nn.Linear(dim_k, dim_v)
        self.fv = nn.Linear(dim_k, dim_v)
        self.fo = nn.Linear(dim_v, dim_v)
        self.norm0 = nn.LayerNorm(dim_v) if ln else None
        self.norm1 = nn.LayerNorm(dim_v) if ln else None

    def apply_mask(self, scores, node_mask):
        if node_mask is not None:
            node_mask = node_mask.repeat(self.heads, 1, 1)
            scores = scores.masked_fill(node_mask == 0, float("-inf"))  # expect: ATT002
        return scores

    def forward(self, Q, K, node_mask):
        Q = self.fq(Q)
        K, V = self.fk(K), self.fv(K)
        split = self.dim_v // self.heads
        q_ = torch.cat(Q.split(split, 2), 0)
        k_ = torch.cat(K.split(split, 2), 0)
        v_ = torch.cat(V.split(split, 2), 0)
        scores = q_.bmm(k_.transpose(1, 2)) / math.sqrt(self.dim_v)  # expect: ATT004
        scores = self.apply_mask(scores, node_mask)
        weights = torch.softmax(scores, 2)
        out = torch.cat((q_ + weights.bmm(v_)).split(Q.size(0), 0), 2)
        out = out if self.norm0 is None else self.norm0(out)
        out = out + F.relu(self.fo(out))
        return out if self.norm1 is None else self.norm1(out)


class MaskedSAB(nn.Module):
    def __init__(self, dim_in, dim_out, heads, ln=False):
        super().__init__()
        self.mab = MaskedMAB(dim_in, dim_in, dim_out, heads, ln=ln)

    def forward(self, X, node_mask):
        return self.mab(X, X, node_mask)


class GraphSetClassifier(nn.Module):
    def __init__(self, dim_in, dim_out, hidden=64, heads=4, ln=False):
        super().__init__()
        self.layers = nn.ModuleList(
            [MaskedSAB(dim_in, hidden, heads, ln), MaskedSAB(hidden, hidden, heads, ln), MaskedSAB(hidden, hidden, heads, ln)]
        )
        self.head = nn.Linear(hidden, dim_out)

    def forward(self, X, node_mask):
        h = X
        for layer in self.layers:
            h = layer(h, node_mask)
        return self.head(h.max(dim=1).values)
