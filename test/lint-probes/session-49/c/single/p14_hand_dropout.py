import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, d, p=0.1):
        super().__init__()
        self.p = p
        self.d = d

    def forward(self, q, k, v, keep):
        # keep: (B, S) bool, True at real keys
        scores = torch.matmul(q, k.transpose(-2, -1)) / self.d ** 0.5
        scores = scores.masked_fill(~keep[:, None, :], -1e9)
        w = torch.softmax(scores, dim=-1)
        if self.training and self.p > 0:
            drop = torch.rand_like(w) >= self.p
            w = w * drop / (1.0 - self.p)
        return torch.matmul(w, v), w
