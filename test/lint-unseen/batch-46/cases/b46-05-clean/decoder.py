# case: b46-05-clean
# modelled-on: ASMAMAWABATEH/Core-GPT https://github.com/ASMAMAWABATEH/Core-GPT/commit/bc8b559c6a2eb962c8b6b9cbfa51828b98f39a2d
# label: correct
# class: clean
# pattern: decoder-only GPT (a folder: the attention module and the model with its sampling loop): one fused qkv projection viewed as (b, n, 3, heads, d_head) and permuted with (2, 0, 3, 1, 4) to (3, b, heads, n, d_head); scores q @ k.transpose(-2, -1) * 1/sqrt(d_head); a registered (1, 1, ctx, ctx) lower-triangular buffer sliced [:n, :n] and filled with -inf where it is 0; softmax(dim=-1); generation crops the running ids to the last context_length tokens and re-runs the whole window for every new token (no key/value cache)
# why: correct: the permute puts the qkv index first and keeps keys as (b, heads, n, d_head), so transposing the last two axes gives (b, heads, n, n) scores; the tril buffer is a keep mask (1 = past or same position) and the fill hits its zeros, the future; the slice [:n, :n] is square because queries and keys are the same n tokens, and the generation loop never feeds more than context_length of them; the scale is per head
# looks-like: ATT002, ATT005, ATT008
# source: https://github.com/ASMAMAWABATEH/Core-GPT https://github.com/ASMAMAWABATEH/Core-GPT/commit/bc8b559c6a2eb962c8b6b9cbfa51828b98f39a2d models/attention.py
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn

from self_attention import CausalHeads


@dataclass
class DecoderConfig:
    vocab: int
    dim: int
    depth: int
    heads: int
    context_length: int
    p: float = 0.1


class Block(nn.Module):
    def __init__(self, cfg: DecoderConfig):
        super().__init__()
        self.ln_a = nn.LayerNorm(cfg.dim)
        self.attn = CausalHeads(cfg.dim, cfg.heads, cfg.context_length, cfg.p)
        self.ln_b = nn.LayerNorm(cfg.dim)
        self.mlp = nn.Sequential(nn.Linear(cfg.dim, 4 * cfg.dim), nn.GELU(), nn.Linear(4 * cfg.dim, cfg.dim))

    def forward(self, x):
        x = x + self.attn(self.ln_a(x))
        return x + self.mlp(self.ln_b(x))


class Decoder(nn.Module):
    def __init__(self, cfg: DecoderConfig):
        super().__init__()
        self.cfg = cfg
        self.tok = nn.Embedding(cfg.vocab, cfg.dim)
        self.pos = nn.Embedding(cfg.context_length, cfg.dim)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.depth))
        self.ln_f = nn.LayerNorm(cfg.dim)
        self.lm_head = nn.Linear(cfg.dim, cfg.vocab, bias=False)

    def forward(self, ids: torch.Tensor, targets: Optional[torch.Tensor] = None):
        n = ids.shape[1]
        if n > self.cfg.context_length:
            raise ValueError("sequence longer than the context")
        x = self.tok(ids) + self.pos(torch.arange(n, device=ids.device))
        for blk in self.blocks:
            x = blk(x)
        logits = self.lm_head(self.ln_f(x))
        loss = None if targets is None else F.cross_entropy(logits.flatten(0, 1), targets.flatten())
        return logits, loss

    @torch.no_grad()
    def sample(self, ids: torch.Tensor, steps: int, temperature: float = 1.0) -> torch.Tensor:
        self.eval()
        for _ in range(steps):
            window = ids[:, -self.cfg.context_length:]
            logits, _ = self(window)
            probs = F.softmax(logits[:, -1] / temperature, dim=-1)
            ids = torch.cat([ids, torch.multinomial(probs, 1)], dim=1)
        return ids
