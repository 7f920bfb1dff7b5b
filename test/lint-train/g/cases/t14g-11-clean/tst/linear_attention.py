# case: t14g-11-clean
# modelled-on: taihim/timeseries-transformer https://github.com/taihim/timeseries-transformer/commit/05ce5d9e5fc2fe7956103d73432d3bc48c47db85
# label: correct
# class: clean
# pattern: the Linformer-style layer of a time-series attention study: projections split into (batch, heads, seq, d_k) with view + transpose(1, 2); the keys are transposed first and multiplied by a learned (heads, seq_len, low_rank) matrix E, giving (batch, heads, d_k, low_rank), so the scores are query @ key_projected with no further transpose, divided by sqrt(d_k) and softmaxed over the last (low-rank) axis; the values go through F the same way and are transposed back before the product; linear layers are cloned by a helper in another module
# why: correct: key.transpose(-2, -1) @ E is (K^T E), the transpose of the projected keys (E^T K), so query @ key_projected is Q (E^T K)^T, the Linformer scores, and the missing transpose at the product is not missing; d_k is the per-head width of the queries and keys that are multiplied; the softmax runs over the low-rank key positions; what a naive linter could misread: ATT005 (a product of queries with keys that carries no transpose, and transposes elsewhere), ATT004 (sqrt(d_k) next to a low-rank width), ATT001 (a softmax over a projected axis)
# looks-like: ATT001, ATT004, ATT005
# source: https://github.com/taihim/timeseries-transformer https://github.com/taihim/timeseries-transformer/commit/05ce5d9e5fc2fe7956103d73432d3bc48c47db85 src/timeseries_transformer/attention.py
import math

import torch
from torch import nn

from tst.utils import clone_layers


class LinearAttention(nn.Module):
    def __init__(self, head_size, num_heads, seq_len, low_rank_dim, dropout=0.1):
        super().__init__()
        assert head_size % num_heads == 0
        self.d_k = head_size // num_heads
        self.num_heads = num_heads
        self.weight_matrices = clone_layers(nn.Linear(head_size, head_size), 4)
        self.E = nn.Parameter(torch.empty(num_heads, seq_len, low_rank_dim))
        self.F = nn.Parameter(torch.empty(num_heads, seq_len, low_rank_dim))
        nn.init.xavier_uniform_(self.E)
        nn.init.xavier_uniform_(self.F)
        self.dropout = nn.Dropout(dropout) if dropout > 0 else None

    def _linear_attention(self, query, key, value):
        key_projected = torch.matmul(key.transpose(-2, -1), self.E)  # (batch, heads, d_k, low_rank)
        value_projected = torch.matmul(value.transpose(-2, -1), self.F)  # (batch, heads, d_k, low_rank)
        attn = torch.matmul(query, key_projected) / math.sqrt(self.d_k)  # (batch, heads, seq, low_rank)
        attn = attn.softmax(dim=-1)
        if self.dropout is not None:
            attn = self.dropout(attn)
        return torch.matmul(attn, value_projected.transpose(-2, -1)), attn

    def forward(self, query, key, value):
        batch_size = query.size(0)
        query, key, value = [
            w(x).view(batch_size, -1, self.num_heads, self.d_k).transpose(1, 2)
            for w, x in zip(self.weight_matrices, (query, key, value))
        ]
        x, self.attn = self._linear_attention(query, key, value)
        x = x.transpose(1, 2).contiguous().view(batch_size, -1, self.num_heads * self.d_k)
        return self.weight_matrices[-1](x)


if __name__ == "__main__":
    layer = LinearAttention(head_size=64, num_heads=4, seq_len=500, low_rank_dim=32, dropout=0.0)
    x = torch.randn(2, 500, 64)
    print(layer(x, x, x).shape)
