# case: b56-06-clean
# modelled-on: lucidrains/triton-transformer https://github.com/lucidrains/triton-transformer/commit/689abae8647693c2e43d7a3823fbd0b6d11a5c6f
# label: correct
# class: clean
# pattern: a transformer whose attention can run through Triton kernels, a folder: the attention pre-scales q, computes einsum scores over (batch * heads) maps, fills a boolean mask with -finfo.max and calls a softmax helper from another module that takes a causal flag; the model builds a boolean triu(1) buffer as the mask in causal mode on the PyTorch path, skips it on the Triton path (where the fused softmax kernel applies the causal mask itself), and in non-causal mode turns a (batch, n) keep mask into a pairwise mask and inverts it
# why: correct: every mask reaching masked_fill is True where attention is forbidden (triu(1) marks future keys; ~(keep_i * keep_j) marks pairs touching padding), so filling True is right; on the PyTorch path the helper is a plain softmax over the last (key) axis and the causal mask was already applied, on the Triton path the kernel adds -inf to the columns after row % n, the query index of that row of the square (n, n) map, so causality is applied exactly once on either path; the assert keeps a padding mask out of causal mode; q is multiplied by dim_head ** -0.5 before the product; -finfo(dtype).max is a valid fill in any precision
# looks-like: ATT002, ATT003, ATT006, ATT007, ATT008
# source: https://github.com/lucidrains/triton-transformer https://github.com/lucidrains/triton-transformer/commit/689abae8647693c2e43d7a3823fbd0b6d11a5c6f triton_transformer/transformer.py
import torch
from torch import einsum, nn
from einops import rearrange

from fused_softmax import softmax


class Attention(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8, causal=False, use_triton=False):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        self.causal = causal
        self.use_triton = use_triton
        inner = dim_head * heads
        self.qkv = nn.Linear(dim, inner * 3, bias=False)
        self.proj = nn.Linear(inner, dim, bias=False)

    def forward(self, x, mask=None, use_triton=None):
        use_triton = self.use_triton if use_triton is None else use_triton
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> (b h) n d", h=self.heads) for t in (q, k, v))

        sim = einsum("b i d, b j d -> b i j", q * self.scale, k)
        if mask is not None:
            sim = sim.masked_fill(mask, -torch.finfo(sim.dtype).max)

        attn = softmax(sim, causal=self.causal, use_triton=use_triton)
        out = einsum("b i j, b j d -> b i d", attn, v)
        return self.proj(rearrange(out, "(b h) n d -> b n (h d)", h=self.heads))


class LM(nn.Module):
    def __init__(self, *, dim, num_tokens, max_seq_len, depth, causal=False, heads=8, dim_head=64, use_triton=False):
        super().__init__()
        self.causal = causal
        self.use_triton = use_triton
        self.tokens = nn.Embedding(num_tokens, dim)
        self.positions = nn.Embedding(max_seq_len, dim)
        self.layers = nn.ModuleList(
            [Attention(dim, dim_head, heads, causal=causal, use_triton=use_triton) for _ in range(depth)]
        )
        self.norms = nn.ModuleList([nn.LayerNorm(dim) for _ in range(depth)])
        self.out = nn.Linear(dim, num_tokens)
        future = torch.ones(max_seq_len, max_seq_len, dtype=torch.bool).triu(1) if causal else None
        self.register_buffer("future", future, persistent=False)

    def forward(self, ids, mask=None, use_triton=None):
        use_triton = self.use_triton if use_triton is None else use_triton
        n = ids.shape[1]
        x = self.tokens(ids) + self.positions(torch.arange(n, device=ids.device))[None]

        assert not (self.causal and mask is not None), "no padding mask in autoregressive mode"
        if self.causal and not use_triton:
            mask = self.future[:n, :n][None]
        elif not self.causal and mask is not None:
            mask = ~(mask[:, :, None] * mask[:, None, :])
            mask = mask.repeat_interleave(self.layers[0].heads, dim=0)

        for attn, norm in zip(self.layers, self.norms):
            x = x + attn(norm(x), mask=mask, use_triton=use_triton)
        return self.out(x)
