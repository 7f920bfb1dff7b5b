import torch
import torch.nn.functional as F
from torch import nn

from .attention import CausalSelfAttention
from .cache import new_caches


class Block(nn.Module):
    def __init__(self, n_embd, n_head, block_size):
        super().__init__()
        self.ln_1 = nn.LayerNorm(n_embd)
        self.attn = CausalSelfAttention(n_embd, n_head, block_size)
        self.ln_2 = nn.LayerNorm(n_embd)
        self.mlp = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.GELU(), nn.Linear(4 * n_embd, n_embd))

    def forward(self, x, cache=None, start_pos=0):
        x = x + self.attn(self.ln_1(x), cache=cache, start_pos=start_pos)
        return x + self.mlp(self.ln_2(x))


class MiniGPT(nn.Module):
    def __init__(self, vocab_size=512, n_embd=128, n_head=4, n_layer=4, block_size=128):
        super().__init__()
        self.block_size = block_size
        self.n_layer = n_layer
        self.wte = nn.Embedding(vocab_size, n_embd)
        self.wpe = nn.Embedding(block_size, n_embd)
        self.blocks = nn.ModuleList([Block(n_embd, n_head, block_size) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size, bias=False)

    def forward(self, idx, caches=None, start_pos=0):
        t = idx.size(1)
        pos = torch.arange(start_pos, start_pos + t, device=idx.device)
        x = self.wte(idx) + self.wpe(pos)[None]
        for i, block in enumerate(self.blocks):
            x = block(x, cache=None if caches is None else caches[i], start_pos=start_pos)
        return self.head(self.ln_f(x))

    @torch.no_grad()
    def generate(self, idx, max_new_tokens, temperature=1.0):
        self.eval()
        caches = new_caches(self.n_layer)
        if idx.size(1) > 1:
            self(idx[:, :-1], caches=caches, start_pos=0)  # prefill with a cache: several queries at once
        for _ in range(max_new_tokens):
            start = idx.size(1) - 1
            logits = self(idx[:, -1:], caches=caches, start_pos=start)
            probs = F.softmax(logits[:, -1, :] / max(temperature, 1e-6), dim=-1)
            idx = torch.cat([idx, torch.multinomial(probs, 1)], dim=1)
        return idx
