import torch
from torch import nn


class Pooler(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.mha = nn.MultiheadAttention(d, 2, batch_first=True)
        self.query = nn.Parameter(torch.randn(1, 1, d))

    def forward(self, x, lengths):
        T = x.size(1)
        valid = lengths.unsqueeze(1) > torch.arange(T, device=x.device).unsqueeze(0)
        q = self.query.expand(x.size(0), -1, -1)
        y, _ = self.mha(q, x, x, key_padding_mask=valid.logical_not())
        return y.squeeze(1)
