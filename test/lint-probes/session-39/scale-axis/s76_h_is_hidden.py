import math
import torch
import torch.nn as nn


class DotAttention(nn.Module):
    """Older RNN code: `h` is the hidden width of one attention (no heads)."""

    def __init__(self, h):
        super().__init__()
        self.h = h
        self.wq = nn.Linear(h, h)
        self.wk = nn.Linear(h, h)

    def forward(self, dec, enc):
        # dec: (B, T, h), enc: (B, S, h)
        s = torch.bmm(self.wq(dec), self.wk(enc).transpose(1, 2)) / math.sqrt(self.h)  # (B, T, S)
        return torch.bmm(s.softmax(-1), enc)
