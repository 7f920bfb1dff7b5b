import torch
import torch.nn as nn
import torch.nn.functional as F


class GATLayer(nn.Module):
    """Graph attention: LeakyReLU(a^T [Wh_i || Wh_j]) scores, no scale; heads concatenated."""

    def __init__(self, in_dim, out_dim, heads, alpha=0.2):
        super().__init__()
        self.heads = heads
        self.out_dim = out_dim
        self.W = nn.Linear(in_dim, heads * out_dim, bias=False)
        self.a_src = nn.Parameter(torch.randn(heads, out_dim) * (out_dim ** -0.5))
        self.a_dst = nn.Parameter(torch.randn(heads, out_dim) * (out_dim ** -0.5))
        self.leaky = nn.LeakyReLU(alpha)

    def forward(self, h, adj):
        # h: (N, in_dim); adj: (N, N) 0/1
        N = h.size(0)
        wh = self.W(h).view(N, self.heads, self.out_dim)  # (N, H, F)
        e_src = (wh * self.a_src).sum(-1)  # (N, H)
        e_dst = (wh * self.a_dst).sum(-1)
        e = self.leaky(e_src.unsqueeze(1) + e_dst.unsqueeze(0))  # (N, N, H)
        e = e.masked_fill(adj.unsqueeze(-1) == 0, float("-inf"))
        att = torch.softmax(e, dim=1)  # over neighbours j
        out = torch.einsum("ijh,jhf->ihf", att, wh)
        return F.elu(out.reshape(N, self.heads * self.out_dim))
