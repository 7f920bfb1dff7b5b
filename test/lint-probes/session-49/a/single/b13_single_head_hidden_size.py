import math
import torch
import torch.nn as nn


class SelfAttentionPooling(nn.Module):
    """One head over the whole hidden size (heads=1 is the model's only configuration)."""

    def __init__(self, hidden_size):
        super().__init__()
        self.hidden_size = hidden_size
        self.query = nn.Linear(hidden_size, hidden_size)
        self.key = nn.Linear(hidden_size, hidden_size)
        self.value = nn.Linear(hidden_size, hidden_size)

    def forward(self, h, lengths):
        q, k, v = self.query(h), self.key(h), self.value(h)
        scores = torch.bmm(q, k.transpose(1, 2)) / math.sqrt(self.hidden_size)
        pad = torch.arange(h.size(1), device=h.device)[None, :] >= lengths[:, None]
        scores = scores.masked_fill(pad[:, None, :], float("-inf"))
        w = torch.softmax(scores, dim=-1)
        return torch.bmm(w, v).mean(dim=1)
