import math

import torch
import torch.nn as nn
from torch.nn import Parameter


class BiAffineEnergy(nn.Module):
    """Bi-affine energy between decoder queries and encoder keys: (B, Lq, Lk)."""

    def __init__(self, key_dim, query_dim):
        super().__init__()
        self.q_weight = Parameter(torch.Tensor(query_dim))
        self.k_weight = Parameter(torch.Tensor(key_dim))
        self.b = Parameter(torch.Tensor(1))
        self.U = Parameter(torch.Tensor(query_dim, key_dim))
        bound = 1 / math.sqrt(query_dim)
        nn.init.uniform_(self.q_weight, -bound, bound)
        nn.init.uniform_(self.k_weight, -1 / math.sqrt(key_dim), 1 / math.sqrt(key_dim))
        nn.init.constant_(self.b, 0.0)
        nn.init.xavier_uniform_(self.U)

    def forward(self, query, key, mask_query=None, mask_key=None):
        # query: [B, Lq, Dq], key: [B, Lk, Dk]; masks are 1 at real tokens
        out = torch.matmul(torch.matmul(query, self.U), key.transpose(1, 2))
        out_q = torch.matmul(self.q_weight, query.transpose(1, 2)).unsqueeze(2)
        out_k = torch.matmul(self.k_weight, key.transpose(1, 2)).unsqueeze(1)
        out = out + out_q + out_k + self.b
        if mask_query is not None:
            out = out * mask_query.unsqueeze(2)
        if mask_key is not None:
            out = out * mask_key.unsqueeze(1)
        return out
