# case: b30-05-clean
# modelled-on: mmjerge/Waze-Traffic-Forecast https://github.com/mmjerge/Waze-Traffic-Forecast/commit/05b1d4e0db9422601e7a35334a28ab64afc135f2
# label: correct
# class: clean
# pattern: a spatio-temporal graph transformer for traffic forecasting: SpatiotemporalAttention merges time steps and road nodes into one sequence, projects it with nn.Linear into heads of width hidden_dim // num_heads, and replaces softmax attention by linear attention: q and k go through elu(x) + 1, an optional 0/1 mask multiplies the keys, kv = einsum('...nd,...ne->...de', k, v), out = einsum('...nd,...de->...ne', q, kv), and the output is divided by the per-query normaliser einsum('...nd,...d->...n', q, k.sum(dim=-2)) + 1e-6
# why: correct: the class docstring says it uses linear attention, and this is the kernelised linear attention of Katharopoulos et al. (2020) with its feature map elu + 1: it is positive, so the weights are phi(q)·phi(k) divided by their sum over the keys and each query's weights add up to 1 without a softmax; no 1/sqrt(d) belongs in it, the key sum runs over the sequence axis (-2), and the 0/1 mask zeroes masked keys in both the numerator and the normaliser, which is how linear attention excludes keys. (The case calls the layer without a mask: the caller's mask reshaping is outside the attention.)
# looks-like: ATT003, ATT006
# source: https://github.com/mmjerge/Waze-Traffic-Forecast https://github.com/mmjerge/Waze-Traffic-Forecast/commit/05b1d4e0db9422601e7a35334a28ab64afc135f2 waze_traffic_forecast/models/layers.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class SpatiotemporalAttention(nn.Module):
    """
    Unified spatiotemporal attention module that captures both spatial and temporal patterns.
    Uses linear attention for efficiency on large graphs.
    """

    def __init__(self, hidden_dim, num_heads=8, dropout=0.1, **kwargs):
        super(SpatiotemporalAttention, self).__init__()

        self.hidden_dim = hidden_dim
        self.num_heads = num_heads
        self.head_dim = hidden_dim // num_heads
        assert hidden_dim % num_heads == 0, "Hidden dimension must be divisible by number of heads"

        self.query = nn.Linear(hidden_dim, hidden_dim)
        self.key = nn.Linear(hidden_dim, hidden_dim)
        self.value = nn.Linear(hidden_dim, hidden_dim)
        self.out_proj = nn.Linear(hidden_dim, hidden_dim)

        self.out_dropout = nn.Dropout(dropout)
        self.use_layer_norm = kwargs.get('use_layer_norm', True)
        if self.use_layer_norm:
            self.layer_norm = nn.LayerNorm(hidden_dim)
        self.use_residual = kwargs.get('use_residual', True)

    def _linearized_attention(self, q, k, v, mask=None):
        # Apply ELU activation and add 1 for positive values
        q = F.elu(q) + 1
        k = F.elu(k) + 1

        # Linear attention: instead of computing (Q*K^T)*V, compute Q*(K^T*V)
        if mask is not None:
            k = k * mask.unsqueeze(-1)

        kv = torch.einsum("...nd,...ne->...de", k, v)
        out = torch.einsum("...nd,...de->...ne", q, kv)

        # Normalize by the sum of attention weights
        normalizer = torch.einsum("...nd,...d->...n", q, k.sum(dim=-2))
        out = out / (normalizer.unsqueeze(-1) + 1e-6)
        return out

    def forward(self, x):
        # x: [batch_size, seq_len, num_nodes, hidden_dim]
        batch_size, seq_len, num_nodes, _ = x.size()
        residual = x

        if self.use_layer_norm:
            x = self.layer_norm(x)

        # Merge sequence and nodes for unified spatiotemporal attention
        x = x.reshape(batch_size, seq_len * num_nodes, self.hidden_dim)

        q = self.query(x).view(batch_size, -1, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.key(x).view(batch_size, -1, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.value(x).view(batch_size, -1, self.num_heads, self.head_dim).transpose(1, 2)

        attn_out = self._linearized_attention(q, k, v)

        attn_out = attn_out.transpose(1, 2).contiguous().view(batch_size, seq_len * num_nodes, self.hidden_dim)
        out = self.out_dropout(self.out_proj(attn_out))
        out = out.view(batch_size, seq_len, num_nodes, self.hidden_dim)

        if self.use_residual:
            out = out + residual
        return out
