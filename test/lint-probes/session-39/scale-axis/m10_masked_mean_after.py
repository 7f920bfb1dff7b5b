import torch
import torch.nn as nn


class MaskedSoftmaxPool(nn.Module):
    """Masked softmax written as exp, times the mask, divided by the masked sum."""

    def __init__(self, dim):
        super().__init__()
        self.w = nn.Linear(dim, 1)

    def forward(self, x, mask):
        # x: (B, T, dim); mask: (B, T) 0/1 float
        e = self.w(x).squeeze(-1)  # (B, T)
        e = e - e.max(dim=1, keepdim=True).values
        a = torch.exp(e) * mask
        a = a / (a.sum(dim=1, keepdim=True) + 1e-8)
        return (a.unsqueeze(-1) * x).sum(1)
