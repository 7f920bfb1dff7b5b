import torch
import torch.nn as nn
import torch.nn.functional as F


class Attn(nn.Module):
    def __init__(self, d, causal):
        super().__init__()
        self.causal = causal
        self.q, self.k, self.v = nn.Linear(d, d), nn.Linear(d, d), nn.Linear(d, d)

    def forward(self, x, ctx=None, cache=None):
        src = x if ctx is None else ctx
        q, k, v = self.q(x), self.k(src), self.v(src)
        if cache is not None and ctx is not None:
            k, v = cache  # cross-attention: the encoder's keys, computed once
        return F.scaled_dot_product_attention(q, k, v, is_causal=self.causal), (k, v)


class Decoder(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.self_attn = Attn(d, causal=True)
        self.cross_attn = Attn(d, causal=False)

    def forward(self, y, memory, cross_cache=None):
        y = y + self.self_attn(y)[0]  # full target sequence each call, no self cache
        out, cross_cache = self.cross_attn(y, memory, cross_cache)
        return y + out, cross_cache
