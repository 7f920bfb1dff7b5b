# case: b3-18-scale
# modelled-on: braindecode/braindecode https://github.com/braindecode/braindecode/commit/cd04172fa11f8ba560a9ca6db815781155c3ae90
# label: buggy
# class: real-bug
# pattern: a multi-head self-attention module for EEG transformers (heads split with an einops Rearrange layer, scores by einsum 'bhqd, bhkd -> bhqk'); the scale is taken from the module's emb_size, and the models build it with their embedding width and a number of heads
# why: the scores are divided by sqrt(emb_size), the full width, instead of sqrt(emb_size // num_heads), the head width, so the softmax is sqrt(num_heads) times too flat; issue #873 reported it and commit cd04172 (which says "Fixes #873") scales by the head dimension
# source: https://github.com/braindecode/braindecode https://github.com/braindecode/braindecode/commit/cd04172fa11f8ba560a9ca6db815781155c3ae90 braindecode/modules/attention.py
from typing import Optional

import torch
import torch.nn.functional as F
from einops.layers.torch import Rearrange
from torch import Tensor, nn


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention block: (batch, tokens, emb_size) -> (batch, tokens, emb_size)."""

    def __init__(self, emb_size, num_heads, dropout):
        super().__init__()
        self.emb_size = emb_size
        self.num_heads = num_heads
        self.keys = nn.Linear(emb_size, emb_size)
        self.queries = nn.Linear(emb_size, emb_size)
        self.values = nn.Linear(emb_size, emb_size)
        self.att_drop = nn.Dropout(dropout)
        self.projection = nn.Linear(emb_size, emb_size)
        self.rearrange_stack = Rearrange("b n (h d) -> b h n d", h=num_heads)
        self.rearrange_unstack = Rearrange("b h n d -> b n (h d)")

    def forward(self, x: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        queries = self.rearrange_stack(self.queries(x))
        keys = self.rearrange_stack(self.keys(x))
        values = self.rearrange_stack(self.values(x))
        energy = torch.einsum("bhqd, bhkd -> bhqk", queries, keys)
        if mask is not None:
            energy = energy.masked_fill(~mask, float("-inf"))

        scaling = self.emb_size ** (1 / 2)
        att = F.softmax(energy / scaling, dim=-1)  # expect: ATT004
        att = self.att_drop(att)
        out = torch.einsum("bhal, bhlv -> bhav ", att, values)
        return self.projection(self.rearrange_unstack(out))
