import torch
import torch.nn as nn


class EdgeScores(nn.Module):
    def __init__(self, d, heads):
        super().__init__()
        self.heads = heads
        self.lin = nn.Linear(d, heads * d)
        self.att = nn.Parameter(torch.randn(1, 1, heads, 2 * d))
        self.d = d

    def forward(self, x, adj):
        # x: (N, d); adj: (N, N) bool
        N = x.shape[0]
        h = self.lin(x).view(N, self.heads, self.d)  # (N, H, d)
        pair = torch.cat([h.unsqueeze(1).expand(N, N, -1, -1), h.unsqueeze(0).expand(N, N, -1, -1)], dim=-1)
        e = torch.nn.functional.leaky_relu((pair * self.att).sum(-1), 0.2)  # (N_i, N_j, H)
        e = e.masked_fill(~adj.unsqueeze(-1), float("-inf"))
        alpha = torch.softmax(e, dim=1)  # over neighbours j
        return torch.einsum("ijh,jhd->ihd", alpha, h)
