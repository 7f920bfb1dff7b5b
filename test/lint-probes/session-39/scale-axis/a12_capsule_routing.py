import torch
import torch.nn as nn


class Routing(nn.Module):
    """Dynamic routing: coupling coefficients are a softmax over the output capsules (axis 1 here)."""

    def __init__(self, iters=3):
        super().__init__()
        self.iters = iters

    @staticmethod
    def squash(s, dim=-1):
        n2 = (s ** 2).sum(dim, keepdim=True)
        return n2 / (1 + n2) * s / torch.sqrt(n2 + 1e-8)

    def forward(self, u_hat):
        # u_hat: (B, out_caps, in_caps, d)
        b = torch.zeros(u_hat.shape[:3], device=u_hat.device)  # (B, out, in)
        for i in range(self.iters):
            c = torch.softmax(b, dim=1)
            s = (c.unsqueeze(-1) * u_hat).sum(dim=2)  # (B, out, d)
            v = self.squash(s)
            if i < self.iters - 1:
                b = b + (u_hat * v.unsqueeze(2)).sum(-1)
        return v
