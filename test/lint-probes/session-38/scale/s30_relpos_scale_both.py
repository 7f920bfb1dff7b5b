import math
import torch
import torch.nn as nn


class RelPosAttention(nn.Module):
    """Transformer-XL style: content and position terms summed, then one 1/sqrt(d) scale."""

    def __init__(self, d_model, n_head, d_head):
        super().__init__()
        self.n_head, self.d_head = n_head, d_head
        self.qkv = nn.Linear(d_model, 3 * n_head * d_head, bias=False)
        self.r_net = nn.Linear(d_model, n_head * d_head, bias=False)
        self.scale = 1 / (d_head ** 0.5)
        self.u = nn.Parameter(torch.zeros(n_head, d_head))
        self.v = nn.Parameter(torch.zeros(n_head, d_head))

    def forward(self, w, r):
        qlen, bsz = w.size(0), w.size(1)
        q, k, v = self.qkv(w).view(qlen, bsz, 3, self.n_head, self.d_head).unbind(2)
        r_k = self.r_net(r).view(qlen, self.n_head, self.d_head)
        ac = torch.einsum("ibnd,jbnd->ijbn", q + self.u, k)
        bd = torch.einsum("ibnd,jnd->ijbn", q + self.v, r_k)
        score = (ac + bd) * self.scale
        prob = torch.softmax(score, dim=1)
        return torch.einsum("ijbn,jbnd->ibnd", prob, v)
