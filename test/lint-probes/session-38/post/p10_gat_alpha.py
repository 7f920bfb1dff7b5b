import torch
import torch.nn as nn
import torch.nn.functional as F


class DenseGAT(nn.Module):
    def __init__(self, in_dim, out_dim, heads, alpha=0.2):
        super().__init__()
        self.heads = heads
        self.W = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.a_src = nn.Parameter(torch.randn(heads, out_dim))
        self.a_dst = nn.Parameter(torch.randn(heads, out_dim))
        self.alpha = alpha

    def forward(self, x, adj):
        N = x.shape[0]
        h = self.W(x).view(N, self.heads, -1)  # (N, H, F)
        e = (h * self.a_src).sum(-1).unsqueeze(1) + (h * self.a_dst).sum(-1).unsqueeze(0)  # (N, N, H)
        e = F.leaky_relu(e, self.alpha)
        e = e.masked_fill(adj.unsqueeze(-1) == 0, float("-inf"))
        att = torch.softmax(e, dim=1)
        return torch.einsum("ijh,jhf->ihf", att, h)
