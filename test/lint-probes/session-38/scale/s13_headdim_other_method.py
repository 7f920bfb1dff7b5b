import torch
import torch.nn as nn


class SplitLater(nn.Module):
    def __init__(self, hidden, heads):
        super().__init__()
        self.hidden = hidden
        self.heads = heads
        self.query = nn.Linear(hidden, hidden)
        self.key = nn.Linear(hidden, hidden)
        self.value = nn.Linear(hidden, hidden)
        self._setup()

    def _setup(self):
        self.head_size = self.hidden // self.heads
        self.scale = self.head_size ** -0.5

    def split(self, x):
        b, n, _ = x.shape
        return x.view(b, n, self.heads, self.head_size).permute(0, 2, 1, 3)

    def forward(self, x):
        q = self.split(self.query(x))
        k = self.split(self.key(x))
        v = self.split(self.value(x))
        probs = (q @ k.transpose(-1, -2) * self.scale).softmax(-1)
        return probs @ v
