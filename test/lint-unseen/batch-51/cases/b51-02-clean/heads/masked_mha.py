# case: b51-02-clean
# modelled-on: Leul-Negash/multihead-attention-from-scratch https://github.com/Leul-Negash/multihead-attention-from-scratch/commit/291f6ce677321a2783ed98e64792f09a1619ad77
# label: correct
# class: clean
# pattern: a from-scratch causal multi-head self-attention package (a folder: the shared kernel, whose causal option builds a top-left torch.tril over the score shape, documented for Lq == Lk; and the module, whose full-sequence forward calls the kernel with causal=True and whose incremental step joins the new token's keys and values after the cached ones along the time axis and calls the kernel with causal=False)
# why: correct: the causal forward always has as many queries as keys, so the top-left triangle is the causal mask; the step is documented and used for one new token at a time, and a single query placed after every cached key may see all of them, so no mask is right there (the repository's test checks the stepped outputs against the full forward); the kernel transposes only the last two axes of the keys, scales by sqrt of the head width and normalises over the key axis
# looks-like: ATT005, ATT008
# source: https://github.com/Leul-Negash/multihead-attention-from-scratch https://github.com/Leul-Negash/multihead-attention-from-scratch/commit/291f6ce677321a2783ed98e64792f09a1619ad77 attention/multi_head.py
import torch
import torch.nn as nn

from .kernel import attend


class MaskedSelfAttention(nn.Module):
    """Causal self-attention with `n_heads` heads over slices of a `width`-wide embedding."""

    def __init__(self, width, n_heads, packed=True, bias=True):
        super().__init__()
        if width % n_heads:
            raise ValueError(f"width {width} is not a multiple of n_heads {n_heads}")
        self.width = width
        self.n_heads = n_heads
        self.per_head = width // n_heads
        self.packed = packed
        if packed:
            self.qkv = nn.Linear(width, 3 * width, bias=bias)
        else:
            self.wq = nn.Linear(width, width, bias=bias)
            self.wk = nn.Linear(width, width, bias=bias)
            self.wv = nn.Linear(width, width, bias=bias)
        self.wo = nn.Linear(width, width, bias=bias)

    def _qkv(self, x):
        if self.packed:
            return self.qkv(x).split(self.width, dim=-1)
        return self.wq(x), self.wk(x), self.wv(x)

    def _heads(self, t):
        # (B, T, C) -> (B, H, T, C // H)
        b, n, _ = t.shape
        return t.reshape(b, n, self.n_heads, self.per_head).permute(0, 2, 1, 3)

    def _merge(self, t):
        # (B, H, T, C // H) -> (B, T, C)
        b, _, n, _ = t.shape
        return t.permute(0, 2, 1, 3).reshape(b, n, self.width)

    def forward(self, x):
        """Whole sequence at once: (B, T, C) -> (B, T, C)."""
        q, k, v = (self._heads(t) for t in self._qkv(x))
        mixed, _ = attend(q, k, v, causal=True)
        return self.wo(self._merge(mixed))

    @torch.no_grad()
    def step(self, x_new, memory=None):
        """Extend a sequence by one token.

        x_new: the newest token, (B, 1, C). memory: {"k": ..., "v": ...} of shape (B, H, T_past, C // H), or None.
        Returns the token's output (B, 1, C) and the memory including it.
        """
        q, k, v = (self._heads(t) for t in self._qkv(x_new))
        if memory is not None:
            k = torch.cat([memory["k"], k], dim=2)
            v = torch.cat([memory["v"], v], dim=2)
        # a lone query after every cached key: each of them is in its past
        mixed, _ = attend(q, k, v, causal=False)
        return self.wo(self._merge(mixed)), {"k": k, "v": v}
