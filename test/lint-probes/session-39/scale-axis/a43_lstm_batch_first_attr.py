import torch
import torch.nn as nn


class RNNAttn(nn.Module):
    def __init__(self, emb, hidden):
        super().__init__()
        self.batch_first = True
        self.rnn = nn.LSTM(emb, hidden, batch_first=self.batch_first)
        self.score = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.rnn(x)  # (B, T, hidden)
        e = self.score(out).squeeze(-1)  # (B, T)
        a = torch.softmax(e, dim=1)
        return torch.bmm(a.unsqueeze(1), out).squeeze(1)
