import torch
import torch.nn as nn


class Conv1D(nn.Module):
    """GPT-style projection: a Linear whose weight is stored (in_features, out_features)."""

    def __init__(self, out_features: int, in_features: int) -> None:
        super().__init__()
        self.out_features = out_features
        weight = torch.empty(in_features, out_features)
        nn.init.normal_(weight, std=0.02)
        self.weight = nn.Parameter(weight)
        self.bias = nn.Parameter(torch.zeros(out_features))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        shape = x.size()[:-1] + (self.out_features,)
        x = torch.addmm(self.bias, x.view(-1, x.size(-1)), self.weight)
        return x.view(*shape)
