import torch
import torch.nn as nn


class Pointer(nn.Module):
    def __init__(self, hidden):
        super().__init__()
        self.W1 = nn.Linear(hidden, hidden, bias=False)
        self.W2 = nn.Linear(hidden, hidden, bias=False)
        self.v = nn.Linear(hidden, 1, bias=False)

    def forward(self, enc, dec):
        # enc: (B, S, h), dec: (B, T, h) -> pointer distribution over the S encoder positions for each step
        u = self.v(torch.tanh(self.W1(enc).unsqueeze(1) + self.W2(dec).unsqueeze(2))).squeeze(-1)  # (B, T, S)
        return torch.log_softmax(u, dim=2)
