import torch
import torch.nn as nn


class MemoryReader(nn.Module):
    """Scores laid out (batch, memory slots, queries); each query column is normalised over the slots."""

    def __init__(self, d):
        super().__init__()
        self.key = nn.Linear(d, d)

    def forward(self, queries, memory):
        # queries: (B, T, d); memory: (B, M, d)
        keys = self.key(memory)
        scores = torch.bmm(keys, queries.transpose(1, 2)) / keys.size(-1) ** 0.5  # (B, M, T)
        w = torch.softmax(scores, dim=1)
        return torch.bmm(w.transpose(1, 2), memory)  # (B, T, d)
