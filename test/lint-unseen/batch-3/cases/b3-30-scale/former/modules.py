# case: b3-30-scale
# modelled-on: pbloem/former https://github.com/pbloem/former/commit/e3125a4ce303b33a1610827bed0bdf8c347ef721
# label: correct
# class: fixed
# pattern: after the scaling fix, a teaching implementation of multi-head self-attention: the embedding is projected whole, split into h heads of size s = e // h and folded into the batch; instead of dividing the dot products by a square root, queries and keys are each divided by a fourth root before torch.bmm; an optional causal mask comes from a helper in the util module (-inf above the diagonal, in place)
# why: after commit e3125a4 both fourth roots use s, the head size, so the dot products are divided by sqrt(s) once; the causal mask sets the strict upper triangle to -inf (the diagonal stays), softmax over dim=2 of (b * h, t, t) is the key axis
# looks-like: ATT001, ATT003, ATT004, ATT007
# source: https://github.com/pbloem/former https://github.com/pbloem/former/commit/e3125a4ce303b33a1610827bed0bdf8c347ef721 former/modules.py
import torch
import torch.nn.functional as F
from torch import nn

from .util.util import mask_


class SelfAttention(nn.Module):
    """Canonical implementation of multi-head self attention."""

    def __init__(self, emb, heads=8, mask=False):
        super().__init__()
        assert emb % heads == 0, f"Embedding dimension ({emb}) should be divisible by nr. of heads ({heads})"
        self.emb = emb
        self.heads = heads
        self.mask = mask
        self.tokeys = nn.Linear(emb, emb, bias=False)
        self.toqueries = nn.Linear(emb, emb, bias=False)
        self.tovalues = nn.Linear(emb, emb, bias=False)
        self.unifyheads = nn.Linear(emb, emb)

    def forward(self, x):
        b, t, e = x.size()
        h = self.heads
        s = e // h

        keys = self.tokeys(x).view(b, t, h, s)
        queries = self.toqueries(x).view(b, t, h, s)
        values = self.tovalues(x).view(b, t, h, s)

        # fold heads into the batch dimension
        keys = keys.transpose(1, 2).contiguous().view(b * h, t, s)
        queries = queries.transpose(1, 2).contiguous().view(b * h, t, s)
        values = values.transpose(1, 2).contiguous().view(b * h, t, s)

        queries = queries / (s ** (1 / 4))
        keys = keys / (s ** (1 / 4))
        # instead of dividing the dot products by the square root, we scale the keys and queries

        dot = torch.bmm(queries, keys.transpose(1, 2))
        assert dot.size() == (b * h, t, t)

        if self.mask:  # mask out the upper half of the dot matrix, excluding the diagonal
            mask_(dot, maskval=float("-inf"), mask_diagonal=False)

        dot = F.softmax(dot, dim=2)
        out = torch.bmm(dot, values).view(b, h, t, s)
        out = out.transpose(1, 2).contiguous().view(b, t, s * h)
        return self.unifyheads(out)
