from typing import List, Optional

import torch
import torch.nn.functional as F
from torch import nn

from cached_attention import CachedSelfAttention, Pair, Rotary


class Layer(nn.Module):
    def __init__(self, width: int, heads: int, rotary: Rotary):
        super().__init__()
        self.n1, self.n2 = nn.RMSNorm(width), nn.RMSNorm(width)
        self.attn = CachedSelfAttention(width, heads, rotary)
        self.ffn = nn.Sequential(nn.Linear(width, 4 * width, bias=False), nn.SiLU(), nn.Linear(4 * width, width, bias=False))

    def forward(self, x, past: Optional[Pair] = None):
        a, present = self.attn(self.n1(x), past)
        x = x + a
        return x + self.ffn(self.n2(x)), present


class StoryLM(nn.Module):
    def __init__(self, vocab: int, width: int = 256, depth: int = 6, heads: int = 8, max_len: int = 512):
        super().__init__()
        self.max_len = max_len
        rotary = Rotary(width // heads, max_len)
        self.embed = nn.Embedding(vocab, width)
        self.layers = nn.ModuleList(Layer(width, heads, rotary) for _ in range(depth))
        self.norm = nn.RMSNorm(width)
        self.head = nn.Linear(width, vocab, bias=False)

    def step(self, ids: torch.Tensor, pasts: Optional[List[Pair]] = None):
        done = 0 if pasts is None else pasts[0][0].shape[2]
        if done + ids.shape[1] > self.max_len:
            raise ValueError("context too long")
        x, presents = self.embed(ids), []
        for i, layer in enumerate(self.layers):
            x, p = layer(x, None if pasts is None else pasts[i])
            presents.append(p)
        return self.head(self.norm(x)), presents

    @torch.no_grad()
    def generate(self, ids: torch.Tensor, max_new: int, temperature: float = 1.0) -> torch.Tensor:
        max_new = min(max_new, self.max_len - ids.shape[1])
        logits, pasts = self.step(ids)  # the whole prompt, no cache
        for i in range(max_new):
            last = logits[:, -1, :]
            nxt = last.argmax(-1, keepdim=True) if temperature == 0 else torch.multinomial(F.softmax(last / temperature, -1), 1)
            ids = torch.cat((ids, nxt), dim=1)
            if i == max_new - 1:
                break
            logits, pasts = self.step(nxt, pasts)  # one token against the cache
        return ids
