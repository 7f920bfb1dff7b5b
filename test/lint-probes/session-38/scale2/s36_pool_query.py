import math
import torch
import torch.nn as nn


class AttentionPool(nn.Module):
    """One learned query attends over the tokens: a single head as wide as the model."""

    def __init__(self, hidden_size):
        super().__init__()
        self.query = nn.Parameter(torch.randn(1, 1, hidden_size))
        self.key = nn.Linear(hidden_size, hidden_size)

    def forward(self, x):
        B, N, C = x.shape
        q = self.query.expand(B, -1, -1)
        k = self.key(x)
        scores = q @ k.transpose(1, 2) / math.sqrt(C)
        w = scores.softmax(-1)
        return (w @ x).squeeze(1)
