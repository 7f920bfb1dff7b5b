import torch
import torch.nn as nn

from attention import GroupedAttention, LayerCache


class SmallLM(nn.Module):
    def __init__(self, vocab: int, hidden: int = 512, n_heads: int = 8, n_kv_heads: int = 4, n_layers: int = 8, max_len: int = 2048):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.layers = nn.ModuleList([GroupedAttention(hidden, n_heads, n_kv_heads) for _ in range(n_layers)])
        self.norm = nn.RMSNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)
        hd = hidden // n_heads
        inv = 1.0 / (10000 ** (torch.arange(0, hd, 2).float() / hd))
        ang = torch.outer(torch.arange(max_len).float(), inv)
        emb = torch.cat((ang, ang), dim=-1)[:, None, :]  # (max_len, 1, hd) for (B, T, H, hd)
        self.register_buffer("cos", emb.cos(), persistent=False)
        self.register_buffer("sin", emb.sin(), persistent=False)

    def forward(self, ids, cache: LayerCache = None):
        T = ids.size(1)
        start = cache.length(0) if cache is not None else 0
        cos, sin = self.cos[start : start + T], self.sin[start : start + T]
        x = self.embed(ids)
        for i, layer in enumerate(self.layers):
            x = x + layer(x, cos, sin, cache, i)
        return self.lm_head(self.norm(x))

    @torch.no_grad()
    def generate(self, ids, max_new_tokens: int = 64):
        cache = LayerCache()
        out = ids
        for _ in range(max_new_tokens):
            if cache.length(0) == 0:
                logits = self(out, cache)  # prefill: the whole prompt into an empty cache
            else:
                logits = self(out[:, -1:], cache)  # one new token against the cache
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            out = torch.cat([out, nxt], dim=1)
        return out
