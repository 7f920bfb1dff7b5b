# case: mask-xtransformers-flash-inverted-mask
# modelled-on: lucidrains/x-transformers https://github.com/lucidrains/x-transformers/commit/d731d82b99fbb3491b6a5f0d2012ea2f523411d8
# label: correct
# pattern: Attention (x_transformers.py) inverts the user's keep masks and ors them into one mask that is True where attention is blocked (or_reduce of ~input_mask, ~attn_mask, the max_attend_past mask); Attend (attend.py) fills with it on the slow path (masked_fill(mask, -max)) and, on the flash path, ors in a triu causal mask and hands it to F.scaled_dot_product_attention's attn_mask, inverted when there is no attention bias
# why: the fix d731d82: the blocked-pairs mask is inverted (mask = ~mask) on the flash path before SDPA when it was not turned into an additive bias, so SDPA attends exactly where the slow path does not fill
# looks-like: ATT002, ATT007, ATT008
import torch
import torch.nn.functional as F
from torch import nn
from einops import rearrange

from x_transformers.attend import Attend


def exists(val):
    return val is not None


def default(val, d):
    return val if exists(val) else d


def or_reduce(masks):
    head, *body = masks
    for rest in body:
        head = head | rest
    return head


class Attention(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8, causal=False, flash=False, max_attend_past=None):
        super().__init__()
        inner = dim_head * heads
        self.heads = heads
        self.causal = causal
        self.max_attend_past = max_attend_past
        self.to_q = nn.Linear(dim, inner, bias=False)
        self.to_k = nn.Linear(dim, inner, bias=False)
        self.to_v = nn.Linear(dim, inner, bias=False)
        self.to_out = nn.Linear(inner, dim)
        self.attend = Attend(causal=causal, flash=flash)

    def forward(self, x, context=None, mask=None, context_mask=None, attn_mask=None):
        h, device = self.heads, x.device
        kv_input = default(context, x)
        q = rearrange(self.to_q(x), 'b n (h d) -> b h n d', h=h)
        k = rearrange(self.to_k(kv_input), 'b n (h d) -> b h n d', h=h)
        v = rearrange(self.to_v(kv_input), 'b n (h d) -> b h n d', h=h)

        input_mask = default(context_mask, mask)

        masks = []
        final_attn_mask = None

        if exists(input_mask):
            input_mask = rearrange(input_mask, 'b j -> b 1 1 j')
            masks.append(~input_mask)

        if exists(attn_mask):
            attn_mask = rearrange(attn_mask, 'i j -> 1 1 i j')
            masks.append(~attn_mask)

        if exists(self.max_attend_past):
            i, j = q.shape[-2], k.shape[-2]
            range_q = torch.arange(j - i, j, device=device)
            range_k = torch.arange(j, device=device)
            dist = rearrange(range_q, 'i -> 1 1 i 1') - rearrange(range_k, 'j -> 1 1 1 j')
            masks.append(dist > self.max_attend_past)

        if len(masks) > 0:
            final_attn_mask = or_reduce(masks)

        out = self.attend(q, k, v, mask=final_attn_mask)
        out = rearrange(out, 'b h n d -> b n (h d)')
        out = self.to_out(out)

        if exists(mask):
            # zero the outputs of padded positions: mask is True at the tokens to keep
            out = out.masked_fill(~rearrange(mask, 'b n -> b n 1'), 0.)
        return out
