# case: b43-04-clean
# modelled-on: lucidrains/omninet-pytorch https://github.com/lucidrains/omninet-pytorch/commit/aad37dc475f9df78ae4d49a032bf6e6a5e7ce6aa
# label: correct
# class: clean
# pattern: causal Omninet: a stack of causal self-attention layers (heads folded into the batch, einsum 'b i d, b j d -> b i j' times dim_head ** -0.5, a key padding mask built as the outer product of a (b, n) keep mask and filled where ~mask, a causal mask ones(i, j).triu_(j - i + 1) filled where True, both with -finfo.max, softmax over the last axis); every few layers the hidden states of the last layers are stacked per token, (b n) l d, and a non-causal attention runs across the layer axis only, its outputs max-pooled over layers and added back
# why: correct: the padding mask is a keep mask (True = real token), so ~mask selects the padded pairs; the causal triangle excludes keys after the query, triu_(j - i + 1) aligning it to the bottom right; the layer-axis attention mixes one position's representations from different layers only (the sequence axis is folded into the batch), so it cannot see future tokens and needs no causal mask; -finfo(dtype).max masks in any dtype
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/lucidrains/omninet-pytorch https://github.com/lucidrains/omninet-pytorch/commit/aad37dc475f9df78ae4d49a032bf6e6a5e7ce6aa omninet_pytorch/omninet_pytorch.py
import torch
from einops import rearrange
from torch import einsum, nn


class SelfAttention(nn.Module):
    def __init__(self, *, dim, heads=8, dim_head=64, causal=False):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.causal = causal
        self.to_qkv = nn.Linear(dim, heads * dim_head * 3, bias=False)
        self.to_out = nn.Linear(heads * dim_head, dim)

    def forward(self, x, keep=None):
        h = self.heads
        q, k, v = self.to_qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> (b h) n d", h=h) for t in (q, k, v))
        scores = einsum("b i d, b j d -> b i j", q, k) * self.scale
        very_negative = -torch.finfo(scores.dtype).max

        if keep is not None:
            keep = keep.repeat_interleave(h, dim=0)
            pair_keep = keep[:, :, None] & keep[:, None, :]
            scores.masked_fill_(~pair_keep, very_negative)

        if self.causal:
            i, j = scores.shape[-2:]
            ahead = torch.ones(i, j, device=x.device).triu_(j - i + 1).bool()
            scores.masked_fill_(ahead[None], very_negative)

        weights = scores.softmax(dim=-1)
        out = einsum("b i j, b j d -> b i d", weights, v)
        return self.to_out(rearrange(out, "(b h) n d -> b n (h d)", h=h))


class CausalOmninet(nn.Module):
    def __init__(self, *, dim, depth, dim_head=64, heads=8, pool_every=2):
        super().__init__()
        self.layer_emb = nn.Parameter(torch.randn(depth + 1, dim))
        self.pool_every = pool_every
        self.layers = nn.ModuleList([])
        for idx in range(depth):
            across_layers = SelfAttention(dim=dim, heads=heads, dim_head=dim_head) if (idx + 1) % pool_every else None
            self.layers.append(nn.ModuleList([
                nn.LayerNorm(dim),
                SelfAttention(dim=dim, heads=heads, dim_head=dim_head, causal=True),
                nn.Sequential(nn.LayerNorm(dim), nn.Linear(dim, dim * 4), nn.GELU(), nn.Linear(dim * 4, dim)),
                across_layers,
            ]))

    def forward(self, x, keep=None):
        b = x.shape[0]
        x = x + self.layer_emb[0]
        history = [x]
        for idx, (norm, attn, ff, across_layers) in enumerate(self.layers):
            x = attn(norm(x), keep=keep) + x
            x = ff(x) + x
            x = x + self.layer_emb[idx + 1]
            history.append(x)
            if across_layers is None:
                continue
            recent = torch.stack(history[-self.pool_every:])
            per_token = rearrange(recent, "l b n d -> (b n) l d")
            mixed = rearrange(across_layers(per_token), "(b n) l d -> b n l d", b=b)
            x = x + mixed.max(dim=-2).values
        return x
