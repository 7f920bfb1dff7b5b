# case: b38-04-clean
# modelled-on: lucidrains/memory-transformer-xl https://github.com/lucidrains/memory-transformer-xl/commit/8d25bac85975ec46b1ccbd03f5c25ff181146eb0
# label: correct
# class: clean
# pattern: Transformer-XL style self-attention with three kinds of memory prepended to the keys/values (learned memory key/values, long-term memory, short-term memory of the previous segment); an optional input padding mask is built as the outer product of the segment's mask and padded with True over the memory columns; the causal mask is triu over (t, t + memory) with the diagonal shifted by the memory length; next to it a linear-attention helper that takes a softmax over the feature axis of the queries (dim=-1) and over the sequence axis of the keys (dim=-2)
# why: correct: the causal triangle starts after the memory columns, so every query sees all memories and its own past; the padding mask is True on real tokens and is inverted for masked_fill; in the linear attention the two softmaxes over different axes are the efficient-attention factorisation (Shen et al.), not a mistake
# looks-like: ATT001, ATT002, ATT007, ATT008
# source: https://github.com/lucidrains/memory-transformer-xl https://github.com/lucidrains/memory-transformer-xl/commit/8d25bac85975ec46b1ccbd03f5c25ff181146eb0 memory_transformer_xl/memory_transformer_xl.py
import math

import torch
import torch.nn.functional as F
from torch import nn


def neg_limit(t):
    return -torch.finfo(t.dtype).max


def split_heads(t, dim_head):
    b, n, _ = t.shape
    return t.reshape(b, n, -1, dim_head).transpose(1, 2)


class SegmentAttention(nn.Module):
    def __init__(self, dim, heads=8, num_mem_kv=4, one_kv_head=False, dropout=0.):
        super().__init__()
        assert dim % heads == 0
        self.heads = heads
        self.dim_head = dim // heads
        self.scale = self.dim_head ** -0.5
        self.to_q = nn.Linear(dim, dim, bias=False)
        kv_width = self.dim_head if one_kv_head else dim
        self.to_kv = nn.Linear(dim, 2 * kv_width, bias=False)
        bound = 1 / math.sqrt(dim)
        self.mem_kv = nn.Parameter(torch.empty(1, num_mem_kv, dim).uniform_(-bound, bound))
        self.to_out = nn.Linear(dim, dim)
        self.drop = nn.Dropout(dropout)

    def forward(self, x, short_mem=None, long_mem=None, input_mask=None):
        b, t, e = x.shape
        empty = x.new_zeros(b, 0, e)
        short_mem = empty if short_mem is None else short_mem
        long_mem = empty if long_mem is None else long_mem
        learned = self.mem_kv.expand(b, -1, -1)
        n_mem = learned.shape[1] + long_mem.shape[1] + short_mem.shape[1]

        kv_in = torch.cat((learned, long_mem, short_mem, x), dim=1)
        k, v = self.to_kv(kv_in).chunk(2, dim=-1)
        q = split_heads(self.to_q(x), self.dim_head)
        k = split_heads(k, self.dim_head).expand(-1, self.heads, -1, -1)
        v = split_heads(v, self.dim_head).expand(-1, self.heads, -1, -1)

        dots = torch.einsum('bhid,bhjd->bhij', q, k) * self.scale
        fill = neg_limit(dots)

        if input_mask is not None:
            pair = input_mask[:, None, :, None] * input_mask[:, None, None, :]
            pair = F.pad(pair, (n_mem, 0), value=True)
            dots = dots.masked_fill(~pair, fill)

        ahead = torch.ones(t, t + n_mem, device=x.device).triu_(diagonal=1 + n_mem).bool()
        dots = dots.masked_fill(ahead[None, None], fill)

        attn = self.drop(dots.softmax(dim=-1))
        out = torch.einsum('bhij,bhjd->bhid', attn, v)
        return self.to_out(out.transpose(1, 2).reshape(b, t, -1))


def efficient_attention(q, k, v):
    q = q.softmax(dim=-1)
    k = k.softmax(dim=-2)
    context = torch.einsum('bhnd,bhne->bhde', k, v)
    return torch.einsum('bhnd,bhde->bhne', q, context)


def full_attention(q, k, v):
    dots = torch.einsum('bhid,bhjd->bhij', q, k) * q.shape[-1] ** -0.5
    return torch.einsum('bhij,bhjd->bhid', dots.softmax(dim=-1), v)
