import torch
import torch.nn as nn
import torch.nn.functional as F


class GATLayer(nn.Module):
    def __init__(self, fin, fout):
        super().__init__()
        self.W = nn.Linear(fin, fout, bias=False)
        self.a = nn.Linear(2 * fout, 1, bias=False)

    def forward(self, h, adj):
        # h: (N, fin); adj: (N, N) 1 where an edge exists
        Wh = self.W(h)
        N = Wh.size(0)
        pairs = torch.cat([Wh.repeat_interleave(N, 0), Wh.repeat(N, 1)], 1).view(N, N, -1)
        e = F.leaky_relu(self.a(pairs).squeeze(-1), 0.2)
        e = e.masked_fill(adj == 0, -9e15)
        return F.softmax(e, dim=1) @ Wh
