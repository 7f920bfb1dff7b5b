import torch
from torch import nn
import torch.nn.functional as F


class ScaledDotProduct(nn.Module):
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(p=dropout)

    def forward(self, query, key, value):
        scale = key.size(-1) ** -0.5  # scaling factor
        attention = torch.matmul(query, key.transpose(-2, -1))
        attention = attention * scale
        attention = F.softmax(attention, dim=-1)
        attention = self.dropout(attention)
        return torch.matmul(attention, value)


class ResidualNorm(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.layer_norm = nn.LayerNorm(d_model)

    def forward(self, x, sublayer_out):
        return self.layer_norm(x + sublayer_out)
