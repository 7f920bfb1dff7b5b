# case: b37-10-clean
# modelled-on: rampasek/GraphGPS https://github.com/rampasek/GraphGPS/commit/28015707cbab7f8ad72bed0ee872d068ea59c94b
# label: correct
# class: clean
# pattern: a GPS graph transformer layer (a folder: the layer and the network that stacks it): a local message-passing convolution (GINE or GCN) on the sparse graph plus global attention over all nodes of each graph; torch_geometric's to_dense_batch pads the node features to (graphs, max_nodes, dim) and returns mask, True on real nodes; the Transformer path calls nn.MultiheadAttention(batch_first=True) with attn_mask=None and key_padding_mask=~mask and gathers the real nodes back with [mask]; the Performer path passes mask=mask to performer_pytorch's SelfAttention, whose mask is True on the tokens to keep
# why: correct: key_padding_mask is True on the positions to ignore, and ~mask is True exactly on the padding slots that to_dense_batch added; performer_pytorch's SelfAttention takes the opposite convention (True = attend), so it gets mask itself; every graph has at least one node, so no key row is fully padded
# looks-like: ATT002
# source: https://github.com/rampasek/GraphGPS https://github.com/rampasek/GraphGPS/commit/28015707cbab7f8ad72bed0ee872d068ea59c94b graphgps/layer/gps_layer.py
import torch
import torch.nn as nn
import torch_geometric.nn as pygnn
from performer_pytorch import SelfAttention
from torch_geometric.utils import to_dense_batch


class HybridGraphLayer(nn.Module):
    """Local message passing + global attention over every node of a graph."""

    def __init__(self, dim_h, local_type='GINE', global_type='Transformer', num_heads=4,
                 dropout=0.0, attn_dropout=0.0):
        super().__init__()
        self.global_type = global_type

        if local_type == 'GCN':
            self.local_model = pygnn.GCNConv(dim_h, dim_h)
            self.local_uses_edges = False
        elif local_type == 'GINE':
            mlp = nn.Sequential(nn.Linear(dim_h, dim_h), nn.ReLU(), nn.Linear(dim_h, dim_h))
            self.local_model = pygnn.GINEConv(mlp)
            self.local_uses_edges = True
        else:
            raise ValueError(f'unsupported local model {local_type}')

        if global_type == 'Transformer':
            self.self_attn = nn.MultiheadAttention(dim_h, num_heads, dropout=attn_dropout, batch_first=True)
        elif global_type == 'Performer':
            self.self_attn = SelfAttention(dim=dim_h, heads=num_heads, dropout=attn_dropout, causal=False)
        else:
            raise ValueError(f'unsupported global model {global_type}')

        self.norm_local = nn.BatchNorm1d(dim_h)
        self.norm_attn = nn.BatchNorm1d(dim_h)
        self.norm_out = nn.BatchNorm1d(dim_h)
        self.drop_local = nn.Dropout(dropout)
        self.drop_attn = nn.Dropout(dropout)
        self.ff = nn.Sequential(nn.Linear(dim_h, dim_h * 2), nn.ReLU(), nn.Dropout(dropout),
                                nn.Linear(dim_h * 2, dim_h), nn.Dropout(dropout))

    def forward(self, batch):
        h = batch.x
        residual = h

        if self.local_uses_edges:
            h_local = self.local_model(h, batch.edge_index, batch.edge_attr)
        else:
            h_local = self.local_model(h, batch.edge_index)
        h_local = self.norm_local(residual + self.drop_local(h_local))

        h_dense, mask = to_dense_batch(h, batch.batch)
        if self.global_type == 'Transformer':
            h_attn = self._attend(h_dense, None, ~mask)[mask]
        else:
            h_attn = self.self_attn(h_dense, mask=mask)[mask]
        h_attn = self.norm_attn(residual + self.drop_attn(h_attn))

        h = h_local + h_attn
        h = self.norm_out(h + self.ff(h))
        batch.x = h
        return batch

    def _attend(self, x, attn_mask, key_padding_mask):
        return self.self_attn(x, x, x, attn_mask=attn_mask, key_padding_mask=key_padding_mask,
                              need_weights=False)[0]
