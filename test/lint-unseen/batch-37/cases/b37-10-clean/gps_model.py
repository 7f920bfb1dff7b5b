import torch.nn as nn
import torch_geometric.nn as pygnn

from gps_layer import HybridGraphLayer


class GraphRegressor(nn.Module):
    def __init__(self, in_dim, edge_dim, dim_h=64, layers=4, heads=4, global_type='Transformer'):
        super().__init__()
        self.node_encoder = nn.Linear(in_dim, dim_h)
        self.edge_encoder = nn.Linear(edge_dim, dim_h)
        self.layers = nn.ModuleList(
            [HybridGraphLayer(dim_h, 'GINE', global_type, num_heads=heads, dropout=0.1, attn_dropout=0.1)
             for _ in range(layers)])
        self.head = nn.Sequential(nn.Linear(dim_h, dim_h), nn.ReLU(), nn.Linear(dim_h, 1))

    def forward(self, batch):
        batch.x = self.node_encoder(batch.x)
        batch.edge_attr = self.edge_encoder(batch.edge_attr)
        for layer in self.layers:
            batch = layer(batch)
        return self.head(pygnn.global_mean_pool(batch.x, batch.batch))
