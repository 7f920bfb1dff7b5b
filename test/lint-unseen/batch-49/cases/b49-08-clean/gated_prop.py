from torch_geometric.nn import MessagePassing


class GatedSum(MessagePassing):
    """Sums neighbour states along coarse-graph edges, each message scaled by its gate (and an optional edge norm)."""

    def __init__(self, node_dim=-3):
        super().__init__(aggr="add", node_dim=node_dim)

    def forward(self, state, edge_index, gate, norm=None):
        return self.propagate(edge_index, state=state, gate=gate, norm=norm)

    def message(self, state_j, gate, norm):
        msg = gate * state_j
        return msg if norm is None else norm * msg
