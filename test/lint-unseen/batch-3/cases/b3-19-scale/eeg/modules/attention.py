# case: b3-19-scale
# modelled-on: braindecode/braindecode https://github.com/braindecode/braindecode/commit/cd04172fa11f8ba560a9ca6db815781155c3ae90
# label: correct
# class: fixed
# pattern: the EEG multi-head self-attention after the fix: heads split with an einops Rearrange layer, then F.scaled_dot_product_attention with its default scale (1/sqrt of the head dimension) and the boolean keep mask (True = attend) as attn_mask; the models build it with their embedding width and number of heads
# why: SDPA's default scale is 1/sqrt(q.size(-1)) = 1/sqrt(emb_size // num_heads), the head width (commit cd04172, "Fixes #873"), and a boolean attn_mask is True where attention is allowed, the mask's convention (the old masked_fill(~mask)); the commit's manual fallback for old PyTorch is left out
# looks-like: ATT002, ATT003, ATT004
# source: https://github.com/braindecode/braindecode https://github.com/braindecode/braindecode/commit/cd04172fa11f8ba560a9ca6db815781155c3ae90 braindecode/modules/attention.py
from typing import Optional

import torch.nn.functional as F
from einops.layers.torch import Rearrange
from torch import Tensor, nn


class MultiHeadAttention(nn.Module):
    """Multi-head self-attention block: (batch, tokens, emb_size) -> (batch, tokens, emb_size)."""

    def __init__(self, emb_size, num_heads, dropout=0.0):
        super().__init__()
        self.emb_size = emb_size
        self.num_heads = num_heads
        self.head_dim = emb_size // num_heads
        self.keys = nn.Linear(emb_size, emb_size)
        self.queries = nn.Linear(emb_size, emb_size)
        self.values = nn.Linear(emb_size, emb_size)
        self.att_drop = dropout
        self.projection = nn.Linear(emb_size, emb_size)
        self.rearrange_stack = Rearrange("b n (h d) -> b h n d", h=num_heads)
        self.rearrange_unstack = Rearrange("b h n d -> b n (h d)")

    def forward(self, x: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        queries = self.rearrange_stack(self.queries(x))
        keys = self.rearrange_stack(self.keys(x))
        values = self.rearrange_stack(self.values(x))
        dp = self.att_drop if self.training else 0.0
        out = F.scaled_dot_product_attention(queries, keys, values, attn_mask=mask, dropout_p=dp)
        return self.projection(self.rearrange_unstack(out))
