import torch
from torch import nn
from torch.nn.parameter import Parameter

from setnet.multihead import MultiHead


class MAB(nn.Module):
    """Multihead attention block: X attends to Y, both projected to dim_v first."""

    def __init__(self, n_heads, dim_q, dim_k, dim_v, layer_norm=True):
        super().__init__()
        self.to_q = nn.Linear(dim_q, dim_v)
        self.to_k = nn.Linear(dim_k, dim_v)
        self.to_v = nn.Linear(dim_k, dim_v)
        self.attn = MultiHead(n_heads, dim_v, dim_v)
        self.norm0 = nn.LayerNorm(dim_v) if layer_norm else None
        self.norm1 = nn.LayerNorm(dim_v) if layer_norm else None
        self.ff = nn.Sequential(nn.Linear(dim_v, dim_v), nn.ReLU(True))

    def forward(self, x, y):
        if x.dim() < 3:
            x = x.unsqueeze(-1)
        if y.dim() < 3:
            y = y.unsqueeze(-1)
        q = self.to_q(x)
        h = q + self.attn(q, self.to_k(y), self.to_v(y))
        if self.norm0 is not None:
            h = self.norm0(h)
        h = self.ff(h) + h
        return self.norm1(h) if self.norm1 is not None else h


class SAB(nn.Module):
    def __init__(self, n_heads, dim_in, dim_out, layer_norm=True):
        super().__init__()
        self.mab = MAB(n_heads, dim_in, dim_in, dim_out, layer_norm)

    def forward(self, x):
        return self.mab(x, x)


class ISAB(nn.Module):
    def __init__(self, n_heads, n_induce, dim_in, dim_out, layer_norm=True):
        super().__init__()
        self.inducing = Parameter(torch.normal(0, 1, (n_induce, dim_in)))
        self.mab0 = MAB(n_heads, dim_in, dim_in, dim_out, layer_norm)
        self.mab1 = MAB(n_heads, dim_in, dim_out, dim_out, layer_norm)

    def forward(self, x):
        ind = self.inducing.repeat(x.shape[0], 1, 1)
        h = self.mab0(ind, x)
        return self.mab1(x, h)
