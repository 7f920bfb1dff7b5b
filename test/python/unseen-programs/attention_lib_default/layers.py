import torch
import torch.nn as nn


def dot_product_attention(q, k, v, mask=None, temperature=1.0):
    # q: [B, H, T, D], k/v: [B, H, S, D]; mask: bool, True = keep
    scores = torch.matmul(q, k.transpose(-2, -1)) / temperature  # expect: ATT003
    if mask is not None:
        scores = scores.masked_fill(~mask, float("-inf"))
    weights = scores.softmax(dim=-1)
    return torch.matmul(weights, v)


class MultiHead(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        self.heads = heads
        self.to_qkv = nn.Linear(dim, dim * 3, bias=False)
        self.to_out = nn.Linear(dim, dim)

    def forward(self, x, mask=None):
        b, n, d = x.shape
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (t.reshape(b, n, self.heads, d // self.heads).transpose(1, 2) for t in (q, k, v))
        out = dot_product_attention(q, k, v, mask=mask)
        return self.to_out(out.transpose(1, 2).reshape(b, n, d))
