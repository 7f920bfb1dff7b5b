import math
import torch
import torch.nn as nn


class NormedBahdanau(nn.Module):
    """Additive attention with a weight-normalised v (energy scale g / ||v||); no dot product, no 1/sqrt(d)."""

    def __init__(self, query_dim, key_dim, units):
        super().__init__()
        self.query_layer = nn.Linear(query_dim, units, bias=False)
        self.key_layer = nn.Linear(key_dim, units, bias=False)
        self.v = nn.Parameter(torch.randn(units) / math.sqrt(units))
        self.g = nn.Parameter(torch.tensor(math.sqrt(1.0 / units)))
        self.b = nn.Parameter(torch.zeros(units))

    def forward(self, query, keys, mask):
        # query: (B, Dq); keys: (B, S, Dk); mask: (B, S) True = real token
        pq = self.query_layer(query).unsqueeze(1)  # (B, 1, U)
        pk = self.key_layer(keys)  # (B, S, U)
        v = self.g * self.v / self.v.norm()
        energy = torch.tanh(pq + pk + self.b) @ v  # (B, S)
        energy = energy.masked_fill(~mask, float("-inf"))
        alpha = torch.softmax(energy, dim=-1)
        return torch.bmm(alpha.unsqueeze(1), keys).squeeze(1), alpha
