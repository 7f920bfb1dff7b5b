import torch
from torch import nn


class Summary(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.proj = nn.Linear(d, 1)

    def forward(self, h, mask):  # h: (T, B, d), mask: (B, T) True at real tokens
        e = self.proj(h).squeeze(-1)  # (T, B)
        e = e.masked_fill(~mask.t(), float("-inf"))
        a = torch.softmax(e, dim=0)
        return (a.unsqueeze(-1) * h).sum(0)


def run(model, ids, emb, pad=0):
    return model(emb(ids).transpose(0, 1), ids != pad)
