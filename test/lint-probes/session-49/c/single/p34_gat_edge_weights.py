import torch
import torch.nn as nn
import torch.nn.functional as F


class GraphAttentionLayer(nn.Module):
    def __init__(self, fin, fout, alpha=0.2):
        super().__init__()
        self.W = nn.Linear(fin, fout, bias=False)
        self.a = nn.Parameter(torch.empty(2 * fout, 1))
        nn.init.xavier_uniform_(self.a)
        self.leaky = nn.LeakyReLU(alpha)

    def forward(self, h, adj):
        # h: (N, fin); adj: (N, N) 0/1 adjacency with self loops
        Wh = self.W(h)
        f = Wh.shape[1]
        e = self.leaky(Wh @ self.a[:f] + (Wh @ self.a[f:]).T)  # (N, N)
        e = torch.where(adj > 0, e, torch.full_like(e, -9e15))
        attention = F.softmax(e, dim=1)
        attention = attention * (adj > 0)  # rows of nodes without neighbours stay zero
        return F.elu(attention @ Wh)
