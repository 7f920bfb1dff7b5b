from __future__ import annotations

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch_geometric.nn import TransformerConv

from .layers import ChunkAttention


class GeneGraphModel(nn.Module):
    def __init__(self, *, num_genes, gene_dim, p1, p2, p3, feat_dim, num_heads, pathway_dim, num_pathways, dropout):
        super().__init__()
        hidden = p1 + p2 + p3 + gene_dim
        self.gene_embedding = nn.Embedding(num_genes, gene_dim)
        self.pathway_embedding = nn.Embedding(num_pathways, pathway_dim)
        self.proj_dna = nn.Linear(feat_dim, p1)
        self.proj_text = nn.Linear(feat_dim, p2)
        self.proj_protein = nn.Linear(2560, p3)
        self.mix = ChunkAttention(embed_size=p1 + p2 + p3, num_heads=4)
        self.conv = TransformerConv(hidden, hidden, heads=num_heads, dropout=dropout, edge_dim=pathway_dim, concat=False)
        self.norm = nn.LayerNorm(hidden)
        self.gate = nn.Linear(2 * hidden, 1)
        self.feat_dim = feat_dim
        self.dropout = dropout

    def forward(self, data, features, gene_idx, node_idx):
        genes = F.normalize(self.gene_embedding(gene_idx.clamp(min=0, max=self.gene_embedding.num_embeddings - 1)), dim=1)
        edges = self.pathway_embedding(data.edge_attr.squeeze(-1))
        d = self.feat_dim
        mixed = torch.cat(
            (
                self.proj_dna(features[node_idx, :d]),
                self.proj_text(features[node_idx, d : 2 * d]),
                self.proj_protein(features[node_idx, 2 * d :]),
            ),
            dim=1,
        )
        mixed = self.mix(mixed, mixed, mixed)
        x_in = torch.cat((mixed, genes), dim=1)
        x = self.conv(F.dropout(x_in, p=self.dropout, training=self.training), data.edge_index, edge_attr=edges)
        x = F.gelu(self.norm(x))
        beta = torch.sigmoid(self.gate(torch.cat((x_in, x), dim=1)))
        return beta * x_in + (1.0 - beta) * x
