# case: b40-07-clean
# modelled-on: Aashutosh2021/ARIA_LLM https://github.com/Aashutosh2021/ARIA_LLM/commit/832c1112ba9160c1fe04bec804b2a32597479761
# label: correct
# class: clean
# pattern: decoder-only language model attention split over three modules (a folder): masks.py builds a (1, 1, T, T) lower-triangular keep mask of ones; sdpa.py scores q k^T / sqrt(d_head) and fills positions where the mask is 0 with the dtype's most negative finite value before a softmax over the keys; self_attention.py projects grouped-query heads, expands the key/value heads with expand + reshape, multiplies the causal keep mask by the (batch, 1, 1, T) key padding mask (1 = real token) and hands the product to the core
# why: correct: both masks are keep masks (1 = attend), so their product is 1 only where a key is in the past and not padding, and the core fills exactly the zeros; finfo(dtype).min fits half precision and keeps a fully padded row finite; the scale is the head width and the softmax is over the last axis, the keys
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/Aashutosh2021/ARIA_LLM https://github.com/Aashutosh2021/ARIA_LLM/commit/832c1112ba9160c1fe04bec804b2a32597479761 model/multi_head_attention.py
import torch
import torch.nn as nn

from model.masks import lower_triangle
from model.sdpa import DotAttention


class CausalSelfAttention(nn.Module):
    def __init__(self, width: int, n_heads: int, n_kv_heads: int = None, dropout: float = 0.0, bias: bool = False):
        super().__init__()
        assert width % n_heads == 0
        self.width = width
        self.n_heads = n_heads
        self.n_kv_heads = n_heads if n_kv_heads is None else n_kv_heads
        self.d_head = width // n_heads
        self.q = nn.Linear(width, n_heads * self.d_head, bias=bias)
        self.k = nn.Linear(width, self.n_kv_heads * self.d_head, bias=bias)
        self.v = nn.Linear(width, self.n_kv_heads * self.d_head, bias=bias)
        self.o = nn.Linear(n_heads * self.d_head, width, bias=bias)
        self.resid_drop = nn.Dropout(dropout)
        self.core = DotAttention(dropout)

    def _widen(self, t, batch, length):
        # (B, kv_heads, T, d) -> (B, heads, T, d) by repeating each key/value head
        rep = self.n_heads // self.n_kv_heads
        t = t[:, :, None, :, :].expand(batch, self.n_kv_heads, rep, length, self.d_head)
        return t.reshape(batch, self.n_heads, length, self.d_head)

    def forward(self, x, padding=None):
        batch, length, _ = x.shape
        q = self.q(x).view(batch, length, self.n_heads, self.d_head).transpose(1, 2)
        k = self.k(x).view(batch, length, self.n_kv_heads, self.d_head).transpose(1, 2)
        v = self.v(x).view(batch, length, self.n_kv_heads, self.d_head).transpose(1, 2)
        if self.n_kv_heads != self.n_heads:
            k, v = self._widen(k, batch, length), self._widen(v, batch, length)

        allowed = lower_triangle(length, device=x.device)
        if padding is not None:
            # padding: (batch, length), 1 for real tokens and 0 for padding
            allowed = allowed * padding.view(batch, 1, 1, length)

        out, weights = self.core(q, k, v, allowed)
        out = out.transpose(1, 2).contiguous().view(batch, length, self.width)
        return self.resid_drop(self.o(out)), weights
