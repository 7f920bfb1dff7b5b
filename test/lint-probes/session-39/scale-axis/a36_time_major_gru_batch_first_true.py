import torch
import torch.nn as nn


class Encoder(nn.Module):
    def __init__(self, emb, hidden):
        super().__init__()
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.att = nn.Linear(hidden, 1)

    def forward(self, x):
        out, _ = self.rnn(x)  # (B, T, hidden)
        a = self.att(out).transpose(0, 1)  # (T, B, 1): time-major for the decoder below
        a = torch.softmax(a, dim=0)  # over T
        return (a * out.transpose(0, 1)).sum(0)
