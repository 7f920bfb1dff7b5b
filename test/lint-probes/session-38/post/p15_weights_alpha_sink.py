import torch
import torch.nn as nn


class SinkAttention(nn.Module):
    """Attention with a learned null slot: the weight left for the sink scales down the rest."""

    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, 3 * dim)
        self.sink_logit = nn.Parameter(torch.zeros(heads, 1, 1))

    def forward(self, x):
        B, N, C = x.shape
        q, k, v = self.qkv(x).view(B, N, 3, self.heads, -1).permute(2, 0, 3, 1, 4)
        s = q @ k.transpose(-2, -1) * (C // self.heads) ** -0.5
        attn = s.softmax(-1)
        lse = torch.logsumexp(s, dim=-1, keepdim=True)
        keep_scale = torch.sigmoid(lse - self.sink_logit)
        attn = attn * keep_scale
        return (attn @ v).transpose(1, 2).reshape(B, N, C)
