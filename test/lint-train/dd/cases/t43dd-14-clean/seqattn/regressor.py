import torch
import torch.nn as nn

from .attention import AdditiveAttention


class Encoder(nn.Module):
    def __init__(self, n_in=1, hidden=16, layers=1, bidirectional=True):
        super().__init__()
        self.lstm = nn.LSTM(n_in, hidden, num_layers=layers, bidirectional=bidirectional, batch_first=True)

    def forward(self, x):
        if x.dim() == 2:
            x = x.unsqueeze(-1)
        out, (h_n, c_n) = self.lstm(x.float())
        return out, h_n


class AttentiveRegressor(nn.Module):
    def __init__(self, n_in=1, hidden=16, n_out=1, bidirectional=True):
        super().__init__()
        self.bidirectional = bidirectional
        self.encoder = Encoder(n_in, hidden, 1, bidirectional)
        self.attn = AdditiveAttention(hidden, bidirectional)
        self.fc = nn.Linear(hidden * (2 if bidirectional else 1), n_out)

    def forward(self, x):
        out, h_n = self.encoder(x)
        last = torch.cat((h_n[-2], h_n[-1]), dim=1) if self.bidirectional else h_n[-1]
        context, weights = self.attn(out, last)
        return self.fc(context), weights
