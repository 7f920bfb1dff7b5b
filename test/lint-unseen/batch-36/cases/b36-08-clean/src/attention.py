# case: b36-08-clean
# modelled-on: Abdulrazak2004/GP-M078 https://github.com/Abdulrazak2004/GP-M078/commit/511c172d1a62e2446d9ca94dae44e05410eb120c
# label: correct
# class: clean
# pattern: remaining-useful-life prediction for oil-well casing corrosion from synthetic sensor windows (a graduation project): a two-layer bidirectional LSTM (src/models.py) feeds TemporalAttention (src/attention.py), additive attention that scores each timestep with v(tanh(W h_t)) squeezed to (batch, T), softmaxes over dim=1 and pools the LSTM states with bmm(weights.unsqueeze(1), states); the pooled vector feeds multi-task heads
# why: correct: after squeeze(-1) the scores are (batch, T), so dim=1 is the time axis the pooled sum runs over, and each window's weights sum to one; bmm of (B, 1, T) with (B, T, H) sums the states over T with those weights; additive attention has no dot-product scale; the windows have a fixed length, so there is no padding to mask
# looks-like: ATT001, ATT003
# source: https://github.com/Abdulrazak2004/GP-M078 https://github.com/Abdulrazak2004/GP-M078/commit/511c172d1a62e2446d9ca94dae44e05410eb120c src/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class TemporalAttention(nn.Module):
    """Additive attention over the timesteps of a window: which days matter for the prediction."""

    def __init__(self, hidden_dim):
        super().__init__()
        self.W = nn.Linear(hidden_dim, hidden_dim, bias=False)
        self.v = nn.Linear(hidden_dim, 1, bias=False)

    def forward(self, lstm_output):
        # lstm_output: (batch, seq_len, hidden_dim)
        energy = torch.tanh(self.W(lstm_output))  # (B, T, H)
        scores = self.v(energy).squeeze(-1)  # (B, T)
        weights = F.softmax(scores, dim=1)  # one weight per timestep, summing to 1 per window
        context = torch.bmm(weights.unsqueeze(1), lstm_output).squeeze(1)  # (B, 1, T) @ (B, T, H) -> (B, H)
        return context, weights
