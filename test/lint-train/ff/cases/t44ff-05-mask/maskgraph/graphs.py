import numpy as np
import torch
from torch_geometric.utils import unbatch_edge_index


def adjacency_from(matrix, pct=95):
    cut = np.percentile(matrix, pct)
    adj = (matrix >= cut).astype(int)
    np.fill_diagonal(adj, 0)
    return adj


def node_mask(edge_index, graph_of_node, n_graphs, n_nodes):
    linked = torch.full((n_graphs, n_nodes, n_nodes), fill_value=False, dtype=torch.bool)
    owner = graph_of_node.index_select(0, edge_index[0, :])
    local = torch.cat(unbatch_edge_index(edge_index, graph_of_node), dim=1)
    linked[owner, local[0, :], local[1, :]] = True
    linked[owner, local[1, :], local[0, :]] = True
    return (~linked).to(torch.uint8)
