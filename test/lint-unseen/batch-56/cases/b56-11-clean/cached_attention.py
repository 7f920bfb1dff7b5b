# case: b56-11-clean
# modelled-on: KoRo2222/tiny-gpt-storyteller https://github.com/KoRo2222/tiny-gpt-storyteller/commit/159f3e731f6142ea717dad202b7864d476c222be
# label: correct
# class: clean
# pattern: causal self-attention of a small LLaMA-style story model with rotary embeddings and a per-layer (keys, values) cache passed in and handed back, a folder: new queries and keys are rotated from the cached length, the keys are joined with the cached ones along the time axis, and the causal mask is built from absolute positions (query positions past .. past + T - 1, key positions 0 .. past + T - 1) and filled with -inf; the model file prefills the whole prompt with no cache and then feeds one sampled token at a time with the returned caches
# why: correct: the mask compares positions, k_pos > q_pos, so query i (at position past + i) hides only the keys after it: the mask is aligned bottom-right for any number of new tokens over any cached length, and for the whole prompt with no cache it is the usual triangle; the scale is 1/sqrt(head_dim); the softmax runs over the last (key) axis; every row keeps at least its own position
# looks-like: ATT002, ATT005, ATT007, ATT008
# source: https://github.com/KoRo2222/tiny-gpt-storyteller https://github.com/KoRo2222/tiny-gpt-storyteller/commit/159f3e731f6142ea717dad202b7864d476c222be src/storybot/model/attention.py
import math
from typing import Optional, Tuple

import torch
from torch import nn

Pair = Tuple[torch.Tensor, torch.Tensor]  # (batch, heads, cached length, head_dim) each


class Rotary(nn.Module):
    def __init__(self, head_dim: int, max_len: int, base: float = 10000.0):
        super().__init__()
        freq = base ** (-torch.arange(0, head_dim, 2, dtype=torch.float64) / head_dim)
        ang = torch.outer(torch.arange(max_len, dtype=torch.float64), freq)
        self.register_buffer("c", ang.cos().float(), persistent=False)
        self.register_buffer("s", ang.sin().float(), persistent=False)

    def forward(self, x: torch.Tensor, start: int = 0) -> torch.Tensor:
        n = x.shape[-2]
        c, s = self.c[start : start + n].to(x.dtype), self.s[start : start + n].to(x.dtype)
        a, b = x.chunk(2, dim=-1)
        return torch.cat((a * c - b * s, a * s + b * c), dim=-1)


class CachedSelfAttention(nn.Module):
    def __init__(self, width: int, heads: int, rotary: Rotary):
        super().__init__()
        assert width % heads == 0
        self.heads, self.head_dim = heads, width // heads
        self.to_qkv = nn.Linear(width, 3 * width, bias=False)
        self.proj = nn.Linear(width, width, bias=False)
        self.rotary = rotary

    def forward(self, x: torch.Tensor, past: Optional[Pair] = None) -> Tuple[torch.Tensor, Pair]:
        b, n, w = x.shape
        q, k, v = (t.view(b, n, self.heads, self.head_dim).transpose(1, 2) for t in self.to_qkv(x).split(w, dim=-1))

        offset = 0 if past is None else past[0].shape[2]
        q, k = self.rotary(q, offset), self.rotary(k, offset)
        if past is not None:
            k = torch.cat((past[0], k), dim=2)
            v = torch.cat((past[1], v), dim=2)

        logits = q @ k.transpose(-2, -1) / math.sqrt(self.head_dim)
        query_at = torch.arange(offset, offset + n, device=x.device)
        key_at = torch.arange(offset + n, device=x.device)
        logits = logits.masked_fill(key_at[None, :] > query_at[:, None], float("-inf"))
        weights = logits.softmax(dim=-1)

        y = (weights @ v).transpose(1, 2).reshape(b, n, w)
        return self.proj(y), (k, v)
