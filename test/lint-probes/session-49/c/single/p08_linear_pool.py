import torch
import torch.nn as nn


class AttentivePooling(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.score = nn.Sequential(nn.Linear(d, d), nn.Tanh(), nn.Linear(d, 1))

    def forward(self, h, lengths):
        # h: (B, T, d)
        B, T, _ = h.shape
        valid = torch.arange(T, device=h.device)[None, :] < lengths[:, None]  # (B, T)
        logits = self.score(h)  # (B, T, 1)
        logits = logits.masked_fill(~valid.unsqueeze(-1), -1e4)
        w = torch.softmax(logits, dim=1)  # over the T positions
        return (w * h).sum(dim=1)
