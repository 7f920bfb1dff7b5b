# case: fill-compressive-pair-pad-max-neg
# modelled-on: lucidrains/compressive-transformer-pytorch https://github.com/lucidrains/compressive-transformer-pytorch/commit/95edcd4e60ef2e9c9f46588d0bc7b36ff255565a
# label: correct
# pattern: the later form of the same layer: the pair mask from an outer product of the input mask, padded with True over the memories, and the bottom-right causal triu mask are both filled with max_neg_value(dots), the lowest finite value of the scores' dtype
# why: a padded query row is still fully masked, but with a finite value, so softmax gives a uniform row instead of NaN; those rows belong to padding and are ignored by the loss
# looks-like: ATT007, ATT002
import torch
import torch.nn.functional as F
from torch import nn


def max_neg_value(tensor):
    return -torch.finfo(tensor.dtype).max


def to(t):
    return {"dtype": t.dtype, "device": t.device}


class SelfAttention(nn.Module):
    def __init__(self, dim, seq_len, mem_len, cmem_len, heads=8, attn_dropout=0.0):
        super().__init__()
        assert dim % heads == 0
        self.heads = heads
        self.dim_head = dim // heads
        self.seq_len, self.mem_len, self.cmem_len = seq_len, mem_len, cmem_len
        self.scale = self.dim_head ** -0.5
        self.to_q = nn.Linear(dim, dim, bias=False)
        self.to_kv = nn.Linear(dim, dim * 2, bias=False)
        self.to_out = nn.Linear(dim, dim)
        self.attn_dropout = nn.Dropout(attn_dropout)

    def forward(self, x, memories=None, input_mask=None):
        b, t, e, h, dim_h = *x.shape, self.heads, self.dim_head
        mem, cmem = memories if memories is not None else (x[:, :0], x[:, :0])
        mem_len, cmem_len = mem.shape[1], cmem.shape[1]

        q = self.to_q(x)
        kv_input = torch.cat((cmem, mem, x), dim=1)  # (b, cmem + mem + t, e)
        kv_len = kv_input.shape[1]
        k, v = self.to_kv(kv_input).chunk(2, dim=-1)
        merge_heads = lambda z: z.reshape(b, -1, h, dim_h).transpose(1, 2)
        q, k, v = map(merge_heads, (q, k, v))  # (b, h, n, d)

        dots = torch.einsum("bhid,bhjd->bhij", q, k) * self.scale  # (b, h, t, kv_len)
        mask_value = max_neg_value(dots)

        if input_mask is not None:
            mask = input_mask[:, None, :, None] * input_mask[:, None, None, :]  # (b, 1, t, t)
            mask = F.pad(mask, (mem_len + cmem_len, 0), value=True)
            dots.masked_fill_(~mask, mask_value)

        total_mem_len = mem_len + cmem_len
        causal = torch.ones(t, t + total_mem_len, **to(x)).triu_(diagonal=1 + total_mem_len).bool()
        dots.masked_fill_(causal[None, None, ...], mask_value)

        attn = dots.softmax(dim=-1)
        attn = self.attn_dropout(attn)
        out = torch.einsum("bhij,bhjd->bhid", attn, v)
        out = out.transpose(1, 2).reshape(b, t, -1)  # (b, t, e)
        return self.to_out(out)
