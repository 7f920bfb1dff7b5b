import torch
import torch.nn as nn
import torch.nn.functional as F


class PointerScore(nn.Module):
    """Additive (Bahdanau) scores of one decoder state against every encoded city."""

    def __init__(self, hidden):
        super().__init__()
        self.enc_w = nn.Linear(2 * hidden, hidden)
        self.dec_w = nn.Linear(hidden, hidden)
        self.v = nn.Linear(hidden, 1)

    def forward(self, memory, state, available):
        # memory (b, n, 2h), state (b, h), available (b, n): 1 = the city may still be chosen
        energy = torch.tanh(self.enc_w(memory) + self.dec_w(state)[:, None, :])
        logits = self.v(energy).squeeze(-1)
        logits = logits.masked_fill(available == 0, float("-inf"))
        return F.log_softmax(logits, dim=-1)
