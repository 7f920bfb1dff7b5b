import torch
import torch.nn as nn
from torch.nn import functional as F

from .attention import CachedSelfAttention, TopKRouter
from .kvstore import FlatCache

EOS = 50256


class Layer(nn.Module):
    def __init__(self, dim, heads, n_experts, k):
        super().__init__()
        self.attn = CachedSelfAttention(dim, heads)
        self.moe = TopKRouter(dim, dim * 4, n_experts, k)
        self.n1 = nn.LayerNorm(dim)
        self.n2 = nn.LayerNorm(dim)

    def forward(self, x, cache, layer, position):
        x = x + self.attn(self.n1(x), cache, layer, position)
        return x + self.moe(self.n2(x))


class MoEDecoder(nn.Module):
    def __init__(self, vocab=50304, dim=768, heads=8, depth=6, n_experts=8, k=2, max_len=1024):
        super().__init__()
        self.dims = (depth, heads, max_len, dim // heads)
        self.max_len = max_len
        self.tok = nn.Embedding(vocab, dim)
        self.pos = nn.Embedding(max_len, dim)
        self.layers = nn.ModuleList(Layer(dim, heads, n_experts, k) for _ in range(depth))
        self.norm = nn.LayerNorm(dim)
        self.lm = nn.Linear(dim, vocab)
        self.lm.weight = self.tok.weight

    def fresh_cache(self, batch=1):
        depth, heads, max_len, hd = self.dims
        return FlatCache(depth, batch, heads, max_len, hd, self.tok.weight.device, self.tok.weight.dtype)

    def forward(self, ids, cache):
        b, n = ids.shape
        start = cache.filled
        assert start + n <= self.max_len, "cache full"
        x = self.tok(ids) + self.pos(torch.arange(start, start + n, device=ids.device))
        for i, layer in enumerate(self.layers):
            x = layer(x, cache, i, start)
        cache.filled += n
        return self.lm(self.norm(x))

    @torch.no_grad()
    def generate(self, ids, steps, temperature=1.0, cache=None):
        cache = cache or self.fresh_cache(1)
        if cache.filled != 0:
            raise ValueError("generate() needs a fresh cache")
        out, feed = ids, ids
        for _ in range(steps):
            logits = self(feed, cache)[:, -1, :]
            if temperature == 0:
                nxt = logits.argmax(dim=-1, keepdim=True)
            else:
                nxt = torch.multinomial(F.softmax(logits / temperature, dim=-1), 1)
            if nxt.item() == EOS:
                break
            out = torch.cat((out, nxt), dim=1)
            feed = nxt
        return out
