"""Token-by-token decoding with a KV cache: each step joins the new keys to the cached ones.

With the cache, the queries (the new tokens) are fewer than the keys, and model.Attend's is_causal=True
aligns its mask to the top-left corner: the new token may not see the cached tokens (ATT008 in model.py,
with this file's torch.cat as its related location).
"""

import torch
from torch import nn

from model import Attend


class DecoderBlock(nn.Module):
    def __init__(self, dim=256, heads=4):
        super().__init__()
        self.heads = heads
        self.qkv = nn.Linear(dim, dim * 3, bias=False)
        self.attend = Attend(causal=True)

    def forward(self, x, cache=None):
        b, n, _ = x.shape
        q, k, v = self.qkv(x).view(b, n, 3, self.heads, -1).permute(2, 0, 3, 1, 4)  # each (B, H, n, Dh)
        if cache is not None:
            past_k, past_v = cache
            k = torch.cat((past_k, k), dim=-2)  # (B, H, S, Dh)
            v = torch.cat((past_v, v), dim=-2)
        out = self.attend(q, k, v)
        return out.transpose(1, 2).reshape(b, n, -1), (k, v)


@torch.no_grad()
def generate(block, x, steps=16):
    # x: (B, 1, dim), the embedding of the first token
    out, cache = block(x)
    for _ in range(steps):
        out, cache = block(out[:, -1:], cache)
    return out
