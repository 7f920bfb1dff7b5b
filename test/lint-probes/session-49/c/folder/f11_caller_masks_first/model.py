import torch
import torch.nn as nn
from attn_utils import weighted_sum


class MatchLayer(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.W = nn.Linear(d, d, bias=False)

    def forward(self, p, q, q_mask):
        # p: (B, L, d); q: (B, S, d); q_mask: (B, S) float 1/0
        scores = torch.bmm(self.W(p), q.transpose(1, 2))
        scores = scores - (1.0 - q_mask[:, None, :]) * 1e30
        return weighted_sum(scores, q, q_mask)
