import torch
import torch.nn as nn

from attentions import CachedCausalAttention


class Block(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.ln1 = nn.LayerNorm(n_embd)
        self.attn = CachedCausalAttention(d_in=n_embd, d_out=n_embd, max_seq_len=block_size, num_heads=n_head)
        self.ln2 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x, use_cache=False, kv_cache=None):
        y, cache = self.attn(self.ln1(x), use_cache=use_cache, kv_cache=kv_cache)
        x = x + y
        return x + self.mlp(self.ln2(x)), cache


class TinyGPT(nn.Module):
    def __init__(self, vocab, n_embd=768, n_head=12, n_layer=12, block_size=1024):
        super().__init__()
        self.tok = nn.Embedding(vocab, n_embd)
        self.pos = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList([Block(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.head = nn.Linear(n_embd, vocab, bias=False)

    def forward(self, idx, use_cache=False, caches=None, start=0):
        T = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(start, start + T, device=idx.device))
        new = []
        for i, block in enumerate(self.blocks):
            x, c = block(x, use_cache, caches[i] if caches else None)
            new.append(c)
        return self.head(x), new

    @torch.no_grad()
    def generate(self, idx, steps):
        logits, caches = self(idx, use_cache=True)
        for _ in range(steps):
            nxt = logits[:, -1].argmax(-1, keepdim=True)
            start = idx.shape[1]
            idx = torch.cat([idx, nxt], dim=1)
            logits, caches = self(nxt, use_cache=True, caches=caches, start=start)
        return idx
