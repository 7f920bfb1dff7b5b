import torch.nn as nn

from src.attention import TemporalAttention


class MultiTaskHeads(nn.Module):
    """Remaining useful life, corrosion rate and wall thickness (regression), corrosion cause (classes)."""

    def __init__(self, input_dim, n_causes=6):
        super().__init__()
        self.head_rul = nn.Sequential(nn.Linear(input_dim, 32), nn.ReLU(), nn.Linear(32, 1))
        self.head_rate = nn.Sequential(nn.Linear(input_dim, 32), nn.ReLU(), nn.Linear(32, 1), nn.ReLU())
        self.head_wall = nn.Sequential(nn.Linear(input_dim, 32), nn.ReLU(), nn.Linear(32, 1), nn.ReLU())
        self.head_cause = nn.Sequential(nn.Linear(input_dim, 64), nn.ReLU(), nn.Linear(64, n_causes))

    def forward(self, features):
        return {
            "rul": self.head_rul(features).squeeze(-1).clamp(0.0, 500.0),
            "rate": self.head_rate(features).squeeze(-1),
            "wall": self.head_wall(features).squeeze(-1),
            "cause": self.head_cause(features),
        }


class BiLSTMAttention(nn.Module):
    def __init__(self, n_features, hidden1=64, hidden2=32, dropout=0.3):
        super().__init__()
        self.lstm1 = nn.LSTM(n_features, hidden1, batch_first=True, bidirectional=True)
        self.lstm2 = nn.LSTM(hidden1 * 2, hidden2, batch_first=True, bidirectional=True)
        self.drop = nn.Dropout(dropout)
        self.attention = TemporalAttention(hidden2 * 2)
        self.heads = MultiTaskHeads(hidden2 * 2)

    def forward(self, x):
        # x: (batch, window, n_features) -> dict of predictions
        out, _ = self.lstm1(x)
        out, _ = self.lstm2(self.drop(out))
        features, self.last_attention = self.attention(self.drop(out))
        return self.heads(self.drop(features))
