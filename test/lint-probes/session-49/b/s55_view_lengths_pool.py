import torch
from torch import nn


class AttnPool(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.w = nn.Linear(d, 1)

    def forward(self, h, lengths):  # h: (B, T, d)
        B, T, _ = h.shape
        pad = torch.arange(T, device=h.device).view(1, T).expand(B, T) >= lengths.view(B, 1)
        e = self.w(h).squeeze(-1).masked_fill(pad, float("-inf"))
        return (e.softmax(-1).unsqueeze(-1) * h).sum(1)
