import torch
from torch import nn

from attention import GroupedAttention


class CausalLM(nn.Module):
    def __init__(self, vocab: int, width: int = 256, heads: int = 8, kv_heads: int = 2, depth: int = 4, max_len: int = 512):
        super().__init__()
        self.max_len = max_len
        self.emb = nn.Embedding(vocab, width)
        self.pos = nn.Embedding(max_len, width)
        self.norms = nn.ModuleList([nn.LayerNorm(width) for _ in range(depth)])
        self.blocks = nn.ModuleList([GroupedAttention(width, heads, kv_heads, causal=True) for _ in range(depth)])
        self.head = nn.Linear(width, vocab)

    def forward(self, ids, keep=None, caches=None):
        offset = caches[0][0].shape[-2] if caches else 0
        pos = torch.arange(offset, offset + ids.shape[1], device=ids.device)
        x = self.emb(ids) + self.pos(pos)
        new_caches = []
        for i, (norm, block) in enumerate(zip(self.norms, self.blocks)):
            cache = caches[i] if caches else None
            y, c = block(norm(x), keep, cache)
            x = x + y
            new_caches.append(c)
        return self.head(x), new_caches

    @torch.no_grad()
    def generate(self, ids, steps, keep=None):
        logits, caches = self(ids, keep)  # the prompt, no cache yet
        out = ids
        for _ in range(steps):
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            out = torch.cat((out, nxt), dim=-1)
            # one new token against the cached keys of every layer
            logits, caches = self(nxt, caches=caches)
        return out
