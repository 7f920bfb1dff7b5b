# case: t32y-05-clean
# modelled-on: harshisageek/stock-project https://github.com/harshisageek/stock-project/commit/37b22fda5bd345e8b6ff984b8d87d79cd41e4eb3
# label: correct
# class: clean
# pattern: a stock-direction classifier: a bidirectional 2-layer LSTM over (B, T, features), attention pooling that scores every time step with Linear(2H, 1) to (B, T, 1), softmax over dim=1, the context the weighted sum over dim=1, then a sigmoid head
# why: correct: the scores keep a trailing axis of size 1, so dim=1 is the time axis and each sequence's weights sum to one over its steps (dim=-1 would be the singleton axis); a learned one-vector scorer is attention pooling, which takes no 1/sqrt(d); every window has full length, so nothing is masked
# looks-like: ATT001, ATT003
# source: https://github.com/harshisageek/stock-project https://github.com/harshisageek/stock-project/commit/37b22fda5bd345e8b6ff984b8d87d79cd41e4eb3 brain/neural_networks/model.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class StepPooling(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.score = nn.Linear(width, 1)

    def forward(self, seq):
        w = F.softmax(self.score(seq), dim=1)
        return torch.sum(w * seq, dim=1), w


class PriceDirectionLSTM(nn.Module):
    def __init__(self, n_features=13, hidden=64, layers=2, dropout=0.2):
        super().__init__()
        self.hidden = hidden
        self.layers = layers
        self.rnn = nn.LSTM(n_features, hidden, layers, batch_first=True, dropout=dropout, bidirectional=True)
        self.pool = StepPooling(hidden * 2)
        self.head = nn.Linear(hidden * 2, 1)

    def forward(self, x):
        h0 = torch.zeros(self.layers * 2, x.size(0), self.hidden, device=x.device)
        c0 = torch.zeros(self.layers * 2, x.size(0), self.hidden, device=x.device)
        out, _ = self.rnn(x, (h0, c0))
        ctx, _ = self.pool(out)
        return torch.sigmoid(self.head(ctx))
