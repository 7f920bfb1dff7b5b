import torch
import torch.nn as nn

from a34_scores_util import key_major_scores


class KeyMajor(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.k = nn.Linear(d, d)
        self.v = nn.Linear(d, d)

    def forward(self, x):
        s = key_major_scores(self.q(x), self.k(x))  # (B, S, T)
        w = torch.softmax(s, dim=1)  # over S
        return torch.bmm(w.transpose(1, 2), self.v(x))
