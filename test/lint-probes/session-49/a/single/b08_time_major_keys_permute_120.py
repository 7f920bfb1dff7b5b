import math
import torch
import torch.nn as nn


class RNNAttention(nn.Module):
    """Encoder states are time-major (S, B, H) as nn.GRU returns them by default."""

    def __init__(self, hidden):
        super().__init__()
        self.rnn = nn.GRU(hidden, hidden)
        self.q = nn.Linear(hidden, hidden)
        self.k = nn.Linear(hidden, hidden)

    def forward(self, src, dec_h):
        enc, _ = self.rnn(src)
        keys = self.k(enc)
        queries = self.q(dec_h).transpose(0, 1)
        scores = torch.bmm(queries, keys.permute(1, 2, 0)) / math.sqrt(keys.size(-1))
        weights = torch.softmax(scores, dim=-1)
        context = torch.bmm(weights, enc.transpose(0, 1))
        return context, weights
