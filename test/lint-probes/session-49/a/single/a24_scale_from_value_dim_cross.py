import torch
import torch.nn as nn


class CrossAttention(nn.Module):
    def __init__(self, query_dim, context_dim, heads=8, dim_head=40):
        super().__init__()
        inner_dim = dim_head * heads
        self.scale = dim_head ** -0.5
        self.heads = heads
        self.to_q = nn.Linear(query_dim, inner_dim, bias=False)
        self.to_k = nn.Linear(context_dim, inner_dim, bias=False)
        self.to_v = nn.Linear(context_dim, inner_dim, bias=False)
        self.to_out = nn.Linear(inner_dim, query_dim)

    def forward(self, x, context):
        h = self.heads
        b, n, _ = x.shape
        q = self.to_q(x).view(b, n, h, -1).transpose(1, 2).reshape(b * h, n, -1)
        k = self.to_k(context).view(b, context.shape[1], h, -1).transpose(1, 2).reshape(b * h, context.shape[1], -1)
        v = self.to_v(context).view(b, context.shape[1], h, -1).transpose(1, 2).reshape(b * h, context.shape[1], -1)
        sim = torch.baddbmm(
            torch.empty(q.shape[0], q.shape[1], k.shape[1], dtype=q.dtype, device=q.device),
            q,
            k.transpose(-1, -2),
            beta=0,
            alpha=self.scale,
        )
        attn = sim.softmax(dim=-1)
        out = torch.bmm(attn, v).view(b, h, n, -1).transpose(1, 2).reshape(b, n, -1)
        return self.to_out(out)
