# case: b49-08-clean
# modelled-on: lumia-group/cluster-wise-graph-transformer https://github.com/lumia-group/cluster-wise-graph-transformer/commit/b946dd46015495f3abae6ebce6477bfb63277c05
# label: correct
# class: clean
# pattern: a node-to-cluster attention layer of a graph transformer (a folder: the gated message-passing sum over coarsened-graph edges, and the layer itself): one query per cluster from a DeepSets pooling, keys and values per node; kernel feature maps (ReLU or 1 + ELU) replace the softmax, key-value outer products are summed per cluster and propagated over the coarse graph with an edge gate exp(<k_mean_i, q_j> / sqrt(d_k)), and the output is the query's product with the propagated sums divided by its product with the propagated key sums
# why: correct: this is kernelised (linear) attention, phi(q)^T sum_j phi(k_j) v_j^T / phi(q)^T sum_j phi(k_j), which needs neither a softmax nor a 1/sqrt(d) factor on the kernel scores: the normaliser C plays the softmax's role and the + 1e-6 keeps it positive; the one exponentiated score, the cluster-pair gate, is divided by sqrt(d_k) as in dot-product attention; the einsums 'ni,nij->nj' and 'ni,ni->n' contract the feature axis of the query with the key axis of the summaries
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/lumia-group/cluster-wise-graph-transformer https://github.com/lumia-group/cluster-wise-graph-transformer/commit/b946dd46015495f3abae6ebce6477bfb63277c05 Cluster_GT_N2C_T.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch_scatter import scatter

from gated_prop import GatedSum


def deepset(dim_in, dim_out, layers):
    mods = [nn.Linear(dim_in, dim_out)]
    for _ in range(layers - 1):
        mods += [nn.ReLU(), nn.Linear(dim_out, dim_out)]
    return nn.Sequential(*mods)


class NodeToClusterAttention(nn.Module):
    def __init__(self, hidden, kernel="elu", keep_softmax_gate=True, deepset_layers=2):
        super().__init__()
        self.kernel = kernel
        self.keep_softmax_gate = keep_softmax_gate
        self.register_buffer("d_k", torch.tensor(float(hidden)))
        self.q_pre = deepset(hidden, hidden, deepset_layers)
        self.q_post = deepset(hidden, hidden, deepset_layers)
        self.to_k = nn.Linear(hidden, hidden)
        self.to_v = nn.Linear(hidden, hidden)
        self.prop_kv = GatedSum(node_dim=-3)
        self.prop_k = GatedSum(node_dim=-2)

    def feature_map(self, t):
        return F.relu(t) if self.kernel == "relu" else 1 + F.elu(t)

    def forward(self, node_x, cluster_of_node, coarse_edges, coarse_norm=None):
        row, col = coarse_edges
        # one query per cluster (DeepSets over the cluster's nodes)
        q = self.q_post(scatter(self.q_pre(node_x), cluster_of_node, dim=0, reduce="sum"))
        k = self.to_k(node_x)
        v = self.to_v(node_x)
        k_mean = scatter(k, cluster_of_node, dim=0, reduce="mean")

        phi_q = self.feature_map(q)
        phi_k = self.feature_map(k)

        # how strongly cluster `row` passes its summary to cluster `col`
        if self.keep_softmax_gate:
            gate = torch.exp((k_mean[row] * q[col] / torch.sqrt(self.d_k)).sum(dim=1, keepdim=True))
        else:
            gate = (self.feature_map(k_mean)[row] * phi_q[col]).sum(dim=1, keepdim=True)

        kv = scatter(torch.einsum("ni,nj->nij", phi_k, v), cluster_of_node, dim=0, reduce="sum")
        k_sum = scatter(phi_k, cluster_of_node, dim=0, reduce="sum")

        norm_kv = None if coarse_norm is None else coarse_norm.view(-1, 1, 1)
        norm_k = None if coarse_norm is None else coarse_norm.view(-1, 1)
        kv = self.prop_kv(kv, coarse_edges, gate.view(-1, 1, 1), norm_kv)
        k_sum = self.prop_k(k_sum, coarse_edges, gate.view(-1, 1), norm_k)

        numer = torch.einsum("ni,nij->nj", phi_q, kv)
        denom = torch.einsum("ni,ni->n", phi_q, k_sum).unsqueeze(-1) + 1e-6
        return numer / denom


def symmetric_norm(row, col, weight, n_clusters):
    deg = torch.bincount(row, weight, minlength=n_clusters)
    inv = deg.pow(-0.5)
    inv[torch.isinf(inv)] = 0
    return inv[row] * weight * inv[col]
