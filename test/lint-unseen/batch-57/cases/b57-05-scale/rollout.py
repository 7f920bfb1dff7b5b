import torch
import torch.nn as nn

from temporal import TemporalAttention


class PedestrianCell(nn.Module):
    def __init__(self, in_dim: int, hidden: int):
        super().__init__()
        self.cell = nn.LSTM(in_dim, hidden, batch_first=True)
        self.hidden = hidden

    def forward(self, x, h, c):
        b, p = x.shape[:2]
        _, (h, c) = self.cell(x.reshape(b * p, 1, -1), (h.reshape(1, b * p, self.hidden), c))
        return h.squeeze(0).view(b, p, self.hidden), c


class TrajectoryDecoder(nn.Module):
    def __init__(self, obs_len: int = 8, pred_len: int = 12, embed: int = 16, hidden: int = 32):
        super().__init__()
        self.pred_len, self.hidden = pred_len, hidden
        self.embed = nn.Linear(2, embed)
        self.cell = PedestrianCell(embed, hidden)
        self.attend = TemporalAttention(hidden, hidden, hidden, obs_len)
        self.to_xy = nn.Linear(hidden, 2)

    def forward(self, last_xy, h, encoder_states, observed, future_valid):
        """last_xy (B, P, 2); h (B, P, H); encoder_states: list of obs_len tensors (B, P, H);
        observed (B, P, obs_len) and future_valid (B, P, pred_len) are 1 where the pedestrian is present."""
        b, p = last_xy.shape[:2]
        c = torch.zeros(1, b * p, self.hidden, device=h.device)
        memory = torch.stack(encoder_states, dim=2)
        steps, x = [], last_xy
        for j in range(self.pred_len):
            h, c = self.cell(self.embed(x), h, c)
            h, _ = self.attend(h, memory, observed)
            x = self.to_xy(h) * future_valid[:, :, j, None]
            steps.append(x)
        return torch.stack(steps, dim=2)
