# case: t17j-05-clean
# modelled-on: The-AI-Summer/self-attention-cv https://github.com/The-AI-Summer/self-attention-cv/commit/5246e550ecb674f60df76a6c1011fde30ded7f44
# label: correct
# class: clean
# pattern: tied row axial attention from the MSA Transformer paper: q, k, v are rearranged from ((b rows), t, 3 * heads * d) into (b, rows, heads, t, d) with einops, the score is einsum('b r h i d, b r h j d -> b h i j') (summed over all rows, so one attention map is shared by the rows) multiplied by (rows * dim_head) ** -0.5 set in __init__, an optional boolean (t, t) mask marks forbidden pairs with True and is filled with -inf, the softmax runs over the last axis and the map is applied back to every row's values
# why: correct: summing q.k over the rows makes the logits a sum of rows dot products of width dim_head, so the paper's tied-attention normalisation divides by sqrt(rows * dim_head), not by sqrt(dim_head); the einsum contracts the feature axis directly (no key transpose); the mask's documented meaning is True = forbidden and it is filled where True; the softmax is over j, the keys
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/The-AI-Summer/self-attention-cv https://github.com/The-AI-Summer/self-attention-cv/commit/5246e550ecb674f60df76a6c1011fde30ded7f44 self_attention_cv/MSA_transformer/tied_axial_attention.py
import numpy as np
import torch
from einops import rearrange
from torch import nn


class TiedRowAttention(nn.Module):
    def __init__(self, *, dim, rows, heads=8, dim_head=None):
        """Tied row attention: one attention map shared by all rows of the alignment.

        mask: optional bool (tokens, tokens), True where attention is forbidden.
        """
        super().__init__()
        self.dim_head = int(dim / heads) if dim_head is None else dim_head
        inner = self.dim_head * heads
        self.heads = heads
        self.rows = rows
        self.to_qvk = nn.Linear(dim, inner * 3, bias=False)
        self.w_0 = nn.Linear(inner, dim, bias=False)
        self.scale_factor = (self.rows * self.dim_head) ** -0.5

    def forward(self, x, mask=None):
        assert x.dim() == 3, "expected [(batch * rows), tokens, dim]"
        qkv = self.to_qvk(x)
        q, k, v = tuple(rearrange(qkv, "(b rows) t (d k h) -> k b rows h t d", k=3, h=self.heads, rows=self.rows))

        # the row index is summed away: one (tokens, tokens) map per batch and head
        logits = torch.einsum("b r h i d, b r h j d -> b h i j", q, k) * self.scale_factor
        if mask is not None:
            assert mask.shape == logits.shape[2:]
            logits = logits.masked_fill(mask, -np.inf)

        attention = torch.softmax(logits, dim=-1)
        out = torch.einsum("b h i j, b r h j d -> b r h i d", attention, v)
        out = rearrange(out, "b rows h t d -> (b rows) t (h d)")
        return self.w_0(out)
