import torch
import torch.nn as nn
from config import BATCH_FIRST, HIDDEN


class Pooler(nn.Module):
    def __init__(self, n_in):
        super().__init__()
        self.lstm = nn.LSTM(n_in, HIDDEN, batch_first=BATCH_FIRST)
        self.w = nn.Linear(HIDDEN, 1)

    def forward(self, x):
        # x: (T, B, n_in), since BATCH_FIRST is False
        h, _ = self.lstm(x)  # (T, B, H)
        scores = self.w(h).squeeze(-1)  # (T, B)
        alpha = torch.softmax(scores, dim=0)
        return (alpha.unsqueeze(-1) * h).sum(0)
