import torch
import torch.nn as nn


class TimeFirstAttention(nn.Module):
    """nn.LSTM without batch_first: outputs are (T, B, H), so dim 0 is time."""

    def __init__(self, emb, hidden):
        super().__init__()
        self.rnn = nn.LSTM(emb, hidden)
        self.W = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, 1, bias=False)

    def forward(self, x):
        # x: (T, B, emb)
        outputs, _ = self.rnn(x)  # (T, B, hidden)
        energy = self.v(torch.tanh(self.W(outputs)))  # (T, B, 1)
        alpha = torch.softmax(energy, dim=0)
        return (alpha * outputs).sum(0)  # (B, hidden)
