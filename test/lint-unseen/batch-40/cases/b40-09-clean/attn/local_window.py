# case: b40-09-clean
# modelled-on: Eddiehugh/EdgeLLM-Lab https://github.com/Eddiehugh/EdgeLLM-Lab/commit/77458b440576ec10c5236e542af5c3547dfebb94
# label: correct
# class: clean
# pattern: sliding-window causal attention of an edge-model zoo (a folder): the module projects q, k, v, splits heads with a helper from another file, builds an additive (1, 1, T, T) mask that is 0 where 0 <= i - j < window and -inf elsewhere, adds a caller's additive mask to it when one is given, and calls the shared helper, which scales by sqrt(d_head), adds the bias and takes the softmax over the keys
# why: correct: the blocked set is exactly the future (i - j < 0) and the keys further back than the window, the diagonal is always kept so no row is all -inf, the mask is additive and added to the scores before the softmax, and the scale is applied in the helper with the per-head width
# looks-like: ATT002, ATT003, ATT007
# source: https://github.com/Eddiehugh/EdgeLLM-Lab https://github.com/Eddiehugh/EdgeLLM-Lab/commit/77458b440576ec10c5236e542af5c3547dfebb94 modules/attention/sliding_window.py
"""Causal attention restricted to the last `window` positions."""

from __future__ import annotations

import torch
import torch.nn as nn

from attn.common import attend, from_heads, to_heads


class LocalWindowAttention(nn.Module):
    def __init__(self, hidden: int, heads: int, window: int = 128):
        super().__init__()
        if hidden % heads != 0:
            raise ValueError("hidden must be divisible by heads")
        self.hidden, self.heads, self.window = hidden, heads, window
        self.to_q = nn.Linear(hidden, hidden, bias=False)
        self.to_k = nn.Linear(hidden, hidden, bias=False)
        self.to_v = nn.Linear(hidden, hidden, bias=False)
        self.to_out = nn.Linear(hidden, hidden, bias=False)

    def window_bias(self, length: int, device: torch.device) -> torch.Tensor:
        idx = torch.arange(length, device=device)
        offset = idx[:, None] - idx[None, :]
        outside = (offset < 0) | (offset >= self.window)
        bias = torch.zeros(length, length, device=device).masked_fill(outside, float("-inf"))
        return bias[None, None]

    def forward(self, x: torch.Tensor, bias: torch.Tensor | None = None) -> torch.Tensor:
        q, k, v = (to_heads(proj(x), self.heads) for proj in (self.to_q, self.to_k, self.to_v))
        local = self.window_bias(x.size(1), x.device)
        bias = local if bias is None else bias + local
        return self.to_out(from_heads(attend(q, k, v, bias)))
