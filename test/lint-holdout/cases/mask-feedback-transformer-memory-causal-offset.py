# case: mask-feedback-transformer-memory-causal-offset
# modelled-on: lucidrains/feedback-transformer-pytorch https://github.com/lucidrains/feedback-transformer-pytorch/issues/6
# label: correct
# pattern: feedback-transformer attention over a memory of past keys/values concatenated in front of the current chunk's own keys; a (b, j) keep-mask for the context is padded on the right with True for the appended keys, and the causal mask is a ones(i, j).triu_(j - i + 1) so that it is aligned to the end of the key axis
# why: the appended self keys are real tokens, so padding their part of the keep-mask with True is right (the suggestion to pad with False would hide them); triu_(j - i + 1) masks exactly the future of each query when j - i memory slots precede it; -finfo.max fills
# looks-like: ATT002, ATT007, ATT008
import torch
import torch.nn.functional as F
from torch import nn, einsum

from einops import rearrange


def exists(val):
    return val is not None


def safe_cat(arr, el, dim = 1):
    if not exists(arr):
        return el
    return torch.cat((arr, el), dim = dim)


class Attention(nn.Module):
    def __init__(
        self,
        *,
        dim,
        heads = 8,
        dim_head = 64,
        dropout = 0.
    ):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5

        inner_dim = dim_head * heads
        self.to_q = nn.Linear(dim, inner_dim, bias = False)
        self.to_kv = nn.Linear(dim, inner_dim * 2, bias = False)
        self.to_out = nn.Linear(inner_dim, dim)

        self.dropout = nn.Dropout(dropout)

    def forward(self, x, memory, context_mask = None, pos_emb = None):
        h, n, device = self.heads, x.shape[1], x.device

        self_attend = n > 1 # only self attend if going at greater than 1 token at a time

        q = self.to_q(x) * self.scale

        k, v = memory if exists(memory) else (None, None)

        if self_attend:
            self_k, self_v = self.to_kv(x).chunk(2, dim = -1)
            k = safe_cat(k, self_k, dim = 1)
            v = safe_cat(v, self_v, dim = 1)

        q, k, v = map(lambda t: rearrange(t, 'b n (h d) -> b h n d', h = h), (q, k, v))

        sim = einsum('b h i d, b h j d -> b h i j', q, k)
        i, j = sim.shape[-2:]
        mask_value = -torch.finfo(q.dtype).max

        if exists(pos_emb):
            sim = sim + pos_emb(sim)

        if exists(context_mask):
            context_mask = rearrange(context_mask, 'b j -> b () () j')
            pad_len = j - context_mask.shape[-1]
            context_mask = F.pad(context_mask, (0, pad_len), value = True)
            sim.masked_fill_(~context_mask, mask_value)

        if self_attend:
            causal_mask = torch.ones(i, j, device = device).triu_(j - i + 1).bool()
            causal_mask = rearrange(causal_mask, 'i j -> () () i j')
            sim.masked_fill_(causal_mask, mask_value)

        attn = sim.softmax(dim = -1)
        attn = self.dropout(attn)

        out = einsum('b h i j, b h j d -> b h i d', attn, v)
        out = rearrange(out, 'b h n d -> b n (h d)')
        return self.to_out(out)
