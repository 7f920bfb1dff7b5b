import torch
from torch import nn
from torch.nn import functional as F

from attn.utils import broadcast_masked_fill


class FacetAttention(nn.Module):
    num_facets = 4

    def __init__(self, in_features, negative_slope=0.0, bias=False):
        super().__init__()
        width = in_features * self.num_facets
        self.fc = nn.Sequential(nn.Linear(width, width, bias=bias), nn.LeakyReLU(negative_slope), nn.Linear(width, 1, bias=bias))

    @classmethod
    def facets(cls, Q, K):
        return torch.cat([Q, K, torch.abs(Q - K), Q * K], dim=-1)

    def forward(self, Q, K, V, mask=None):
        *batch, n1, d = Q.size()
        n2 = V.size(-2)
        Q = Q.view(*batch, n1, 1, d).expand(*batch, n1, n2, d)
        K = K.view(*batch, 1, n2, d).expand(*batch, n1, n2, d)
        A = self.fc(self.facets(Q, K)).squeeze(-1)  # (*batch, n1, n2)
        if mask is not None:
            A = broadcast_masked_fill(A, ~mask, value=-float("inf"))
        return F.softmax(A, dim=-1) @ V
