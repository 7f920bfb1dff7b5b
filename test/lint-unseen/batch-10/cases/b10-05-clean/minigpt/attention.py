# case: b10-05-clean
# modelled-on: Gravo/mini-gpt-lab https://github.com/Gravo/mini-gpt-lab/commit/80cc424
# label: correct
# class: clean
# pattern: eager causal attention with a KV cache in another module: the tril buffer (== 0 filled) when there is no cache, and a position-based keep mask (key position <= query position, start_pos-aligned) inverted with ~ when there is one
# why: q_pos starts at start_pos, so a cached prefix stays visible and the new tokens see each other causally (bottom-right alignment); both branches fill the future with -inf and no row is empty because each query sees its own key
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/Gravo/mini-gpt-lab https://github.com/Gravo/mini-gpt-lab/commit/80cc424 gptlab/attention.py
import math

import torch
import torch.nn.functional as F
from torch import nn

from .cache import LayerCache


class CausalSelfAttention(nn.Module):
    def __init__(self, n_embd: int, n_head: int, block_size: int, dropout: float = 0.0):
        super().__init__()
        if n_embd % n_head != 0:
            raise ValueError("n_embd must be divisible by n_head")
        self.n_head = n_head
        self.head_dim = n_embd // n_head
        self.c_attn = nn.Linear(n_embd, 3 * n_embd)
        self.c_proj = nn.Linear(n_embd, n_embd)
        self.drop = nn.Dropout(dropout)
        lower = torch.tril(torch.ones(block_size, block_size)).view(1, 1, block_size, block_size)
        self.register_buffer("lower", lower, persistent=False)

    def forward(self, x: torch.Tensor, cache: LayerCache | None = None, start_pos: int = 0) -> torch.Tensor:
        b, t, c = x.size()
        q, k, v = self.c_attn(x).split(c, dim=2)
        q = q.view(b, t, self.n_head, self.head_dim).transpose(1, 2)
        k = k.view(b, t, self.n_head, self.head_dim).transpose(1, 2)
        v = v.view(b, t, self.n_head, self.head_dim).transpose(1, 2)

        if cache is not None:
            k, v = cache.extend(k, v)

        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(self.head_dim))
        if cache is None:
            att = att.masked_fill(self.lower[:, :, :t, :t] == 0, float("-inf"))
        else:
            q_pos = torch.arange(start_pos, start_pos + t, device=x.device)[:, None]
            k_pos = torch.arange(k.size(2), device=x.device)[None, :]
            visible = k_pos <= q_pos
            att = att.masked_fill(~visible.view(1, 1, t, k.size(2)), float("-inf"))

        att = self.drop(F.softmax(att, dim=-1))
        y = (att @ v).transpose(1, 2).contiguous().view(b, t, c)
        return self.c_proj(y)
