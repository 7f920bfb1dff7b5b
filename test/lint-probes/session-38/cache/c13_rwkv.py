import torch
import torch.nn as nn


class RWKVTimeMix(nn.Module):
    def __init__(self, dim):
        super().__init__()
        self.key = nn.Linear(dim, dim, bias=False)
        self.value = nn.Linear(dim, dim, bias=False)
        self.receptance = nn.Linear(dim, dim, bias=False)
        self.time_decay = nn.Parameter(torch.zeros(dim))
        self.time_first = nn.Parameter(torch.zeros(dim))

    def forward(self, x, state):
        aa, bb, pp = state
        k, v, r = self.key(x), self.value(x), torch.sigmoid(self.receptance(x))
        ww = self.time_first + k
        p = torch.maximum(pp, ww)
        e1, e2 = torch.exp(pp - p), torch.exp(ww - p)
        wkv = (e1 * aa + e2 * v) / (e1 * bb + e2)
        ww = pp - torch.exp(self.time_decay)
        p = torch.maximum(ww, k)
        e1, e2 = torch.exp(ww - p), torch.exp(k - p)
        return r * wkv, (e1 * aa + e2 * v, e1 * bb + e2, p)
