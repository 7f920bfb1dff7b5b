# case: b3-27-clean
# modelled-on: lucidrains/alphafold2 https://github.com/lucidrains/alphafold2/commit/28fd89780642cc84a05b3e66de78e6f05bf2f63a
# label: correct
# class: clean
# pattern: MSA row attention with tied attention maps (MSA Transformer): the rows of one alignment are folded out of the batch, the logits are summed over the rows by einsum 'b r h i d, b r h j d -> b h i j' and scaled by dim_head ** -0.5 times num_rows ** -0.5 (the number of non-empty rows per alignment); the row masks are merged and a query x key keep mask is filled with -finfo.max before the softmax over the last axis
# why: tied row attention sums the dot products of R rows, so its variance grows with R and the extra 1/sqrt(R) is the paper's normalisation, on top of the usual 1/sqrt(d); the mask is a keep mask filled where ~mask
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/lucidrains/alphafold2 https://github.com/lucidrains/alphafold2/commit/28fd89780642cc84a05b3e66de78e6f05bf2f63a alphafold2_pytorch/alphafold2.py
import torch
from einops import rearrange
from torch import einsum, nn


class Attention(nn.Module):
    def __init__(self, dim, heads=8, dim_head=64, dropout=0.0):
        super().__init__()
        inner_dim = dim_head * heads
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.to_q = nn.Linear(dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(dim, inner_dim * 2, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x, mask=None, tie_attn_dim=None):
        device, h = x.device, self.heads
        q, k, v = (self.to_q(x), *self.to_kv(x).chunk(2, dim=-1))
        i, j = q.shape[-2], k.shape[-2]
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=h) for t in (q, k, v))

        if tie_attn_dim is not None:
            # tied row attention: one attention map shared by all rows of an alignment
            q, k, v = (rearrange(t, "(b r) h n d -> b r h n d", r=tie_attn_dim) for t in (q, k, v))
            if mask is not None:
                mask = rearrange(mask, "(b r) n -> b r n", r=tie_attn_dim)
                num_rows = (mask.sum(dim=-1) > 0).sum(dim=-1)
                num_rows = rearrange(num_rows, "b -> b () () ()")
                mask = mask.sum(dim=1) > 0
            else:
                num_rows = tie_attn_dim
            dots = einsum("b r h i d, b r h j d -> b h i j", q, k) * self.scale * (num_rows ** -0.5)
        else:
            dots = einsum("b h i d, b h j d -> b h i j", q, k) * self.scale

        if mask is not None:
            mask_value = -torch.finfo(dots.dtype).max
            pair_mask = mask[:, None, :, None] * mask[:, None, None, :]
            dots.masked_fill_(~pair_mask, mask_value)

        attn = dots.softmax(dim=-1)
        attn = self.dropout(attn)

        if tie_attn_dim is not None:
            out = einsum("b h i j, b r h j d -> b r h i d", attn, v)
            out = rearrange(out, "b r h n d -> (b r) h n d")
        else:
            out = einsum("b h i j, b h j d -> b h i d", attn, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out)
