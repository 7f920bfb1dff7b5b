import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.q = nn.Linear(d, d)
        self.kv = nn.Linear(d, 2 * d)

    def forward(self, x, ctx, ctx_keep):
        q = self.q(x)
        k, v = self.kv(ctx).chunk(2, -1)
        s = torch.einsum("bid,bjd->bij", q, k) * q.shape[-1] ** -0.5
        s = s.masked_fill(~ctx_keep[:, None, :], -1e9)
        return torch.einsum("bij,bjd->bid", s.softmax(-1), v)
