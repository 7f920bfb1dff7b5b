# case: t31x-06-clean
# modelled-on: meenamc/Speaker-Diarization-Graph-Transformers https://github.com/meenamc/Speaker-Diarization-Graph-Transformers/commit/a616fb078836ca63747c78d01417598c88b96b21
# label: correct
# class: clean
# pattern: a speaker-diarization graph transformer over speech-segment embeddings in PyTorch Geometric: a MessagePassing attention layer whose message() scores each edge as (query_i * key_j).sum(-1) / math.sqrt(self.out_dim) and normalises with torch_geometric.utils.softmax(score, index, ptr, size_i) over the edges that enter each node; the layer is built by the block as MultiHeadAttentionLayer(in_dim, out_dim // num_heads, num_heads), so the layer's own out_dim is one head's width, and the heads are flattened back with view(-1, out_dim)
# why: correct: inside the layer self.out_dim is the per-head width (the block passes out_dim // num_heads), so sqrt(self.out_dim) is sqrt(d_k); the scores are per edge, not a (query, key) matrix, and the segment softmax normalises over the edges that share a target node, which is the key axis of sparse attention; there is no mask because the edge list only holds allowed pairs
# looks-like: ATT001, ATT003, ATT004
# source: https://github.com/meenamc/Speaker-Diarization-Graph-Transformers https://github.com/meenamc/Speaker-Diarization-Graph-Transformers/commit/a616fb078836ca63747c78d01417598c88b96b21 src/graph_transformer.py
import math
from typing import Optional

import torch
from torch import nn
import torch.nn.functional as F
from torch_geometric.nn import MessagePassing
from torch_geometric.utils import softmax


class MultiHeadAttentionLayer(MessagePassing):
    """Sparse graph multi-head attention."""

    def __init__(self, in_dim: int, out_dim: int, num_heads: int, use_bias: bool = False):
        super().__init__(aggr="add", node_dim=0)
        self.out_dim = out_dim
        self.num_heads = num_heads
        self.query = nn.Linear(in_dim, out_dim * num_heads, bias=use_bias)
        self.key = nn.Linear(in_dim, out_dim * num_heads, bias=use_bias)
        self.value = nn.Linear(in_dim, out_dim * num_heads, bias=use_bias)

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        query = self.query(x).view(-1, self.num_heads, self.out_dim)
        key = self.key(x).view(-1, self.num_heads, self.out_dim)
        value = self.value(x).view(-1, self.num_heads, self.out_dim)
        return self.propagate(edge_index, query=query, key=key, value=value, size=None)

    def message(self, query_i, key_j, value_j, index, ptr: Optional[torch.Tensor], size_i: Optional[int]):
        attention_score = (query_i * key_j).sum(dim=-1) / math.sqrt(self.out_dim)
        attention_score = softmax(attention_score, index, ptr, size_i)
        return value_j * attention_score.unsqueeze(-1)


class GraphTransformerLayer(nn.Module):
    def __init__(self, in_dim: int, out_dim: int, num_heads: int, dropout: float = 0.4):
        super().__init__()
        if out_dim % num_heads != 0:
            raise ValueError("out_dim must be divisible by num_heads")
        self.out_dim = out_dim
        self.dropout = dropout
        self.attention = MultiHeadAttentionLayer(in_dim, out_dim // num_heads, num_heads)
        self.output_projection = nn.Linear(out_dim, out_dim)
        self.feed_forward_1 = nn.Linear(out_dim, out_dim * 2)
        self.feed_forward_2 = nn.Linear(out_dim * 2, out_dim)
        self.batch_norm_1 = nn.BatchNorm1d(out_dim)
        self.batch_norm_2 = nn.BatchNorm1d(out_dim)

    def forward(self, x: torch.Tensor, edge_index: torch.Tensor) -> torch.Tensor:
        h = self.attention(x, edge_index).view(-1, self.out_dim)
        h = self.output_projection(F.dropout(h, self.dropout, training=self.training))
        h = self.batch_norm_1(x + h)
        h2 = self.feed_forward_2(F.relu(self.feed_forward_1(h)))
        return self.batch_norm_2(h + F.dropout(h2, self.dropout, training=self.training))
