import torch
from torch import nn

from .attention import GroupedAttention


class TinyLM(nn.Module):
    def __init__(self, vocab, n_embd=256, n_head=8, n_kv_head=2, n_layer=4, block_size=256):
        super().__init__()
        self.block_size = block_size
        self.tok = nn.Embedding(vocab, n_embd)
        self.blocks = nn.ModuleList([GroupedAttention(n_embd, n_head, n_kv_head) for _ in range(n_layer)])
        self.norms = nn.ModuleList([nn.LayerNorm(n_embd) for _ in range(n_layer)])
        self.head = nn.Linear(n_embd, vocab, bias=False)
        d = n_embd // n_head
        inv = 1.0 / (10000 ** (torch.arange(0, d, 2).float() / d))
        freqs = torch.outer(torch.arange(4 * block_size).float(), inv)
        self.register_buffer("cos", freqs.cos(), persistent=False)
        self.register_buffer("sin", freqs.sin(), persistent=False)

    def forward(self, idx, caches=None, start_pos: int = 0):
        t = idx.size(1)
        cos, sin = self.cos[start_pos : start_pos + t], self.sin[start_pos : start_pos + t]
        x = self.tok(idx)
        new = []
        for i, (blk, norm) in enumerate(zip(self.blocks, self.norms)):
            cache = None if caches is None else caches[i]
            a, cache = blk(norm(x), cos, sin, kv_cache=cache)
            x = x + a
            new.append(cache)
        return self.head(x), new

    @torch.no_grad()
    def generate(self, idx, max_new_tokens: int):
        caches = [None] * len(self.blocks)
        for _ in range(max_new_tokens):
            cond = idx[:, -self.block_size :] if caches[0] is None else idx[:, -1:]
            start = 0 if caches[0] is None else caches[0].k.size(2)
            logits, caches = self(cond, caches=caches, start_pos=start)
            nxt = torch.multinomial(torch.softmax(logits[:, -1], dim=-1), 1)
            idx = torch.cat([idx, nxt], dim=1)
        return idx
