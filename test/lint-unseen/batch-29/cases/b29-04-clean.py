# case: b29-04-clean
# modelled-on: dcc253936-rgb/Cel https://github.com/dcc253936-rgb/Cel/commit/79c08bb70c18dc3b5c74395a15c24ed6d40abe3f
# label: correct
# class: clean
# pattern: a target-tracking model (causal CNN features concatenated to the raw track, an LSTM, then self-attention pooled over time, a linear head predicting the next 3-D state): SelfAttention(dim) with three nn.Linear(dim, dim) projections, scores torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(Q.size(-1)), softmax over dim=-1, weights times values, then the mean over the time axis
# why: correct: single-head self-attention over the LSTM outputs (B, T, D): the scores are divided by sqrt of the query width the product sums over, the softmax normalises over the keys (last axis), the key transpose swaps time and features; no mask is needed because every time step of a track window is real, and averaging the attended sequence over dim=1 is the intended pooling
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/dcc253936-rgb/Cel https://github.com/dcc253936-rgb/Cel/commit/79c08bb70c18dc3b5c74395a15c24ed6d40abe3f calstm_tracking/models/attention.py
import math

import torch
import torch.nn as nn


class SelfAttention(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.q = nn.Linear(dim, dim)
        self.k = nn.Linear(dim, dim)
        self.v = nn.Linear(dim, dim)

    def forward(self, x):
        Q = self.q(x)
        K = self.k(x)
        V = self.v(x)

        scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(Q.size(-1))
        weights = torch.softmax(scores, dim=-1)

        out = torch.matmul(weights, V)
        return out.mean(dim=1)


class CausalConv(nn.Module):
    def __init__(self, in_dim, out_dim, kernel_size=3):
        super().__init__()
        self.pad = kernel_size - 1
        self.conv = nn.Conv1d(in_dim, out_dim, kernel_size)

    def forward(self, x):
        x = x.transpose(1, 2)
        x = nn.functional.pad(x, (self.pad, 0))
        return torch.relu(self.conv(x)).transpose(1, 2)


class TrackPredictor(nn.Module):
    def __init__(self):
        super().__init__()
        self.causal = CausalConv(6, 32)
        self.lstm = nn.LSTM(input_size=6 + 32, hidden_size=32, batch_first=True)
        self.attn = SelfAttention(32)
        self.fc = nn.Linear(32, 3)

    def forward(self, x):
        feat = self.causal(x)
        x = torch.cat([x, feat], dim=-1)
        lstm_out, _ = self.lstm(x)
        return self.fc(self.attn(lstm_out))
