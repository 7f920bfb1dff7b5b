# case: b26-09-scale
# modelled-on: luke-a-thompson/ames_graphormer https://github.com/luke-a-thompson/ames_graphormer/commit/81091ea9c4b31e4ca9ed652990279382c7214b7d
# label: buggy
# class: real-bug
# pattern: a Graphormer for mutagenicity prediction: widths come from a hyper-parameter dataclass (hidden_dim 128, 4 heads), the batch travels in a ModelData dataclass; the attention splits q, k, v into (batch, n, heads, head_size) with head_size = hidden_dim // num_heads, scores them per head with einsum("bnhd,bmhd->bhnm"), multiplies by self.scale = self.hidden_dim ** -0.5 set in __init__, adds the spatial prior, sets all-zero (padding) query rows to -inf, softmax(dim=-1), nan_to_num, and einsums with v
# why: buggy: each head's dot products run over head_size = hidden_dim / num_heads features, so the 1/sqrt(d_k) scale is head_size ** -0.5; the module scales by the full hidden_dim ** -0.5, sqrt(num_heads) = 2 times too small with 4 heads, flattening every head's softmax; the author's own test compares the module with nn.MultiheadAttention (which scales by 1/sqrt(head_dim)) but only to rtol=0.3 with 2 heads; no fix exists (current code)
# source: https://github.com/luke-a-thompson/ames_graphormer https://github.com/luke-a-thompson/ames_graphormer/commit/81091ea9c4b31e4ca9ed652990279382c7214b7d graphormer/modules/attention/mha.py
import torch
import torch.nn as nn

from ames.hparams import HyperParams
from ames.model_data import ModelData


class GraphormerMultiHeadAttention(nn.Module):
    def __init__(self, num_heads: int, hidden_dim: int, dropout_rate: float = 0.1):
        super().__init__()
        self.num_heads = num_heads
        self.hidden_dim = hidden_dim
        self.scale = self.hidden_dim**-0.5
        assert self.hidden_dim % self.num_heads == 0
        self.head_size = self.hidden_dim // self.num_heads
        self.linear_q = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.linear_k = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.linear_v = nn.Linear(hidden_dim, hidden_dim, bias=True)
        self.att_dropout = nn.Dropout(dropout_rate)
        self.linear_out = nn.Linear(hidden_dim, hidden_dim, bias=False)

    def forward(self, data: ModelData) -> ModelData:
        x = data.normalized_input
        prior = data.attention_prior
        b, n = x.shape[0], x.shape[1]
        q_x = self.linear_q(x).view(b, n, self.num_heads, self.head_size)
        k_x = self.linear_k(x).view(b, n, self.num_heads, self.head_size)
        v_x = self.linear_v(x).view(b, n, self.num_heads, self.head_size)

        a = torch.einsum("bnhd,bmhd->bhnm", q_x, k_x)
        pad_mask = torch.all(a == 0, dim=-1)
        a = a * self.scale  # expect: ATT004
        a = a + prior
        a[pad_mask] = float("-inf")
        a = torch.softmax(a, dim=-1)
        a = torch.nan_to_num(a)

        a = torch.einsum("bhnm,bmhd->bnhd", a, v_x)
        a = self.att_dropout(a)
        data.attention_output = self.linear_out(a.contiguous().view(b, n, self.num_heads * self.head_size))
        return data


def build_layers(hp: HyperParams) -> nn.ModuleList:
    return nn.ModuleList([GraphormerMultiHeadAttention(hp.n_heads, hp.hidden_dim, hp.dropout) for _ in range(hp.n_layers)])
