# case: b3-03-mask
# modelled-on: lucidrains/PaLM-rlhf-pytorch https://github.com/lucidrains/PaLM-rlhf-pytorch/commit/6e1baf655a458b43bade810728c225d919081875
# label: buggy
# class: real-bug
# pattern: PaLM-style parallel block with multi-query attention (one key/value head, einsum over 'b h i d, b j d'); when the model is used as an encoder (causal=False) the model's forward derives a key padding mask from negative token ids and passes it to every block, which fills where ~mask
# why: the blocks treat the mask as a keep mask (masked_fill(~mask, ...)), but the model builds it as x < 0, True at the padding, so every real token is masked out and only the padding is attended; the comment says negative ids are the tokens to mask out, and commit 6e1baf6 ("fix masking logic when using palm as encoder") changed it to x >= 0
# source: https://github.com/lucidrains/PaLM-rlhf-pytorch https://github.com/lucidrains/PaLM-rlhf-pytorch/commit/6e1baf655a458b43bade810728c225d919081875 palm_rlhf_pytorch/palm_rlhf_pytorch.py
import torch
from einops import rearrange
from torch import einsum, nn


class ParallelBlock(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8, causal=True, ff_mult=4):
        super().__init__()
        self.norm = nn.LayerNorm(dim)
        attn_inner = dim_head * heads
        ff_inner = dim * ff_mult
        self.fused_dims = (attn_inner, dim_head, dim_head, ff_inner)
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.causal = causal
        self.fused_proj = nn.Linear(dim, sum(self.fused_dims), bias=False)
        self.attn_out = nn.Linear(attn_inner, dim, bias=False)
        self.ff_out = nn.Sequential(nn.GELU(), nn.Linear(ff_inner, dim, bias=False))

    def forward(self, x, mask=None):
        n, device, h = x.shape[1], x.device, self.heads
        x = self.norm(x)
        q, k, v, ff = self.fused_proj(x).split(self.fused_dims, dim=-1)

        # multi-query attention: many query heads, one key / value head
        q = rearrange(q, "b n (h d) -> b h n d", h=h)
        q = q * self.scale
        sim = einsum("b h i d, b j d -> b h i j", q, k)

        # key padding mask
        if mask is not None:
            mask = rearrange(mask, "b j -> b 1 1 j")
            sim = sim.masked_fill(~mask, -torch.finfo(sim.dtype).max)  # expect: ATT002

        if self.causal:
            causal_mask = torch.ones((n, n), device=device, dtype=torch.bool).triu(1)
            sim = sim.masked_fill(causal_mask, -torch.finfo(sim.dtype).max)

        attn = sim.softmax(dim=-1)
        out = einsum("b h i j, b j d -> b h i d", attn, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.attn_out(out) + self.ff_out(ff)


class PaLM(nn.Module):
    def __init__(self, num_tokens, dim, depth, causal=True, dim_head=64, heads=8):
        super().__init__()
        self.causal = causal
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.layers = nn.ModuleList([ParallelBlock(dim, dim_head, heads, causal) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)
        self.to_logits = nn.Linear(dim, num_tokens, bias=False)

    def forward(self, x):
        # mask if encoder
        # treat any token ids that are negative as tokens to mask out - only needed if not autoregressive
        mask = (x < 0) if not self.causal else None
        if mask is not None:
            x = x.masked_fill(mask, 0)

        x = self.token_emb(x)
        for layer in self.layers:
            x = x + layer(x, mask=mask)
        return self.to_logits(self.norm(x))
