import torch
import torch.nn.functional as F
from torch import nn


class GATLayer(nn.Module):
    def __init__(self, fin, fout):
        super().__init__()
        self.W = nn.Linear(fin, fout, bias=False)
        self.a = nn.Linear(2 * fout, 1, bias=False)

    def forward(self, h, adj):
        Wh = self.W(h)
        N = Wh.size(0)
        pairs = torch.cat([Wh.repeat_interleave(N, 0), Wh.repeat(N, 1)], dim=1).view(N, N, -1)
        e = F.leaky_relu(self.a(pairs).squeeze(-1), 0.2)
        e = e.masked_fill(adj == 0, float("-inf"))
        return torch.softmax(e, dim=1) @ Wh
