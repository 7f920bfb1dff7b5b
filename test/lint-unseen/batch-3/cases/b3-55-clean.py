# case: b3-55-clean
# modelled-on: cvignac/DiGress https://github.com/cvignac/DiGress/commit/57df5f8c061d1839c8d101f9378484301061a49d
# label: correct
# class: clean
# pattern: a graph transformer layer with per-feature attention: Q and K are broadcast against each other into (bs, n, n, n_head, df) without summing over df, divided by sqrt(df), modulated by edge features (FiLM), and normalised with a masked softmax helper over dim=2; the values are broadcast the same way and summed over dim 2; the shape comments on the two unsqueezes are swapped in the real code
# why: Q.unsqueeze(2) is (bs, n_i, 1, h, df) and K.unsqueeze(1) is (bs, 1, n_j, h, df), so dim 2 of the scores is the key node j and the values are summed over the same axis; the helper sets the scores of padded key nodes to -inf before the softmax (node mask, key side only), and every graph has at least one real node, so no row is all -inf; the scores are per feature (never summed over df), so dividing by sqrt(df) is the authors' temperature, not a dot-product scale; the 0/1 node masks multiply the projections and edge features, not the scores, and only zero padded entries
# looks-like: ATT001, ATT002, ATT004, ATT006, ATT007
# source: https://github.com/cvignac/DiGress https://github.com/cvignac/DiGress/commit/57df5f8c061d1839c8d101f9378484301061a49d src/models/transformer_model.py
import math

import torch
from torch import nn


def masked_softmax(x, mask, **kwargs):
    x_masked = x.clone()
    x_masked[mask == 0] = -float("inf")
    return torch.softmax(x_masked, **kwargs)


class NodeEdgeAttention(nn.Module):
    def __init__(self, dx: int, de: int, n_head: int):
        super().__init__()
        self.n_head, self.df = n_head, dx // n_head
        self.q, self.k, self.v = nn.Linear(dx, dx), nn.Linear(dx, dx), nn.Linear(dx, dx)
        self.e_add, self.e_mul = nn.Linear(de, dx), nn.Linear(de, dx)
        self.x_out, self.e_out = nn.Linear(dx, dx), nn.Linear(dx, de)

    def forward(self, X, E, node_mask):
        # X: (bs, n, dx) node features, E: (bs, n, n, de) edge features, node_mask: (bs, n)
        bs, n, _ = X.shape
        x_mask = node_mask.unsqueeze(-1)  # bs, n, 1
        e_mask1 = x_mask.unsqueeze(2)  # bs, n, 1, 1
        e_mask2 = x_mask.unsqueeze(1)  # bs, 1, n, 1

        Q = (self.q(X) * x_mask).reshape(bs, n, self.n_head, self.df)
        K = (self.k(X) * x_mask).reshape(bs, n, self.n_head, self.df)
        Q = Q.unsqueeze(2)  # (bs, 1, n, n_head, df)
        K = K.unsqueeze(1)  # (bs, n, 1, n head, df)

        # unnormalised attention, one score per feature: (bs, n, n, n_head, df)
        Y = Q * K
        Y = Y / math.sqrt(Y.size(-1))

        E1 = (self.e_mul(E) * e_mask1 * e_mask2).reshape(bs, n, n, self.n_head, self.df)
        E2 = (self.e_add(E) * e_mask1 * e_mask2).reshape(bs, n, n, self.n_head, self.df)
        Y = Y * (E1 + 1) + E2

        new_E = self.e_out(Y.flatten(start_dim=3)) * e_mask1 * e_mask2  # bs, n, n, de

        softmax_mask = e_mask2.expand(-1, n, -1, self.n_head)  # bs, n, n, n_head
        attn = masked_softmax(Y, softmax_mask, dim=2)  # bs, n, n, n_head, df

        V = (self.v(X) * x_mask).reshape(bs, n, self.n_head, self.df).unsqueeze(1)  # (bs, 1, n, n_head, df)
        weighted_V = (attn * V).sum(dim=2).flatten(start_dim=2)  # bs, n, dx
        new_X = self.x_out(weighted_V) * x_mask
        return new_X, new_E
