import torch
from torch import nn


class StableSoftmax(nn.Module):
    """exp(x - max) / sum, along one axis (the last one unless told otherwise)."""

    def __init__(self, dim=-1):
        super().__init__()
        self.dim = dim

    def forward(self, x):
        shifted = x - x.amax(dim=self.dim, keepdim=True)
        e = torch.exp(shifted)
        return e / e.sum(dim=self.dim, keepdim=True)


class Dense(nn.Module):
    def __init__(self, n_in, n_out, bias=True):
        super().__init__()
        self.weight = nn.Parameter(torch.empty(n_in, n_out))
        nn.init.xavier_uniform_(self.weight)
        self.bias = nn.Parameter(torch.zeros(n_out)) if bias else None

    def forward(self, x):
        y = x @ self.weight
        return y if self.bias is None else y + self.bias
