import torch
import torch.nn as nn


class AttentivePooling(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(dim, dim), nn.Tanh(), nn.Linear(dim, 1))

    def forward(self, h, mask):
        # h: (B, T, dim); mask: (B, T) bool True = real token
        e = self.score(h)  # (B, T, 1)
        e = e.masked_fill(~mask.unsqueeze(-1), float("-inf"))
        a = torch.softmax(e, dim=1)  # over T
        return (a * h).sum(dim=1)
