# case: b37-04-mask
# modelled-on: lucidrains/fast-transformer-pytorch https://github.com/lucidrains/fast-transformer-pytorch/commit/1629c68520d3e2362af99e34585628447ac3de56
# label: correct
# class: fixed
# pattern: the same Fastformer additive attention after the fix: the (b, n) boolean mask (True on real tokens, as in the README's torch.ones(1, n).bool()) is broadcast to (b, 1, n) and both pooling logits are filled with masked_fill(~mask, -finfo.max) before their softmax over the sequence
# why: correct: ~mask is True on the padding, so only padded positions get -finfo.max (finite in the logits' own dtype, so an all-padding row is uniform rather than NaN); each softmax is over the sequence axis n, the axis the following einsum pools over
# looks-like: ATT001, ATT002, ATT007
# source: https://github.com/lucidrains/fast-transformer-pytorch https://github.com/lucidrains/fast-transformer-pytorch/commit/1629c68520d3e2362af99e34585628447ac3de56 fast_transformer_pytorch/fast_transformer_pytorch.py
import torch
from torch import nn, einsum
from einops import rearrange


class GlobalPoolAttention(nn.Module):
    def __init__(self, dim, *, heads=8, head_dim=64):
        super().__init__()
        hidden = heads * head_dim
        self.n_heads = heads
        self.scale = head_dim ** -0.5
        self.in_proj = nn.Linear(dim, hidden * 3, bias=False)
        self.query_score = nn.Linear(head_dim, 1, bias=False)
        self.key_score = nn.Linear(head_dim, 1, bias=False)
        self.out_proj = nn.Linear(hidden, dim)

    def forward(self, tokens, mask=None):
        q, k, v = self.in_proj(tokens).chunk(3, dim=-1)
        q = rearrange(q, 'b n (h d) -> b h n d', h=self.n_heads)
        k = rearrange(k, 'b n (h d) -> b h n d', h=self.n_heads)
        v = rearrange(v, 'b n (h d) -> b h n d', h=self.n_heads)

        fill = -torch.finfo(tokens.dtype).max
        mask = rearrange(mask, 'b n -> b () n')

        q_scores = rearrange(self.query_score(q), 'b h n () -> b h n') * self.scale
        q_scores = q_scores.masked_fill(~mask, fill)
        q_alpha = q_scores.softmax(dim=-1)
        q_global = einsum('b h n, b h n d -> b h d', q_alpha, q)

        k = k * rearrange(q_global, 'b h d -> b h () d')

        k_scores = rearrange(self.key_score(k), 'b h n () -> b h n') * self.scale
        k_scores = k_scores.masked_fill(~mask, fill)
        k_alpha = k_scores.softmax(dim=-1)
        k_global = einsum('b h n, b h n d -> b h d', k_alpha, k)

        out = v * rearrange(k_global, 'b h d -> b h () d')
        out = rearrange(out, 'b h n d -> b n (h d)')
        return self.out_proj(out)


def run_example():
    layer = GlobalPoolAttention(256, heads=4, head_dim=64)
    tokens = torch.randn(2, 128, 256)
    keep = torch.ones(2, 128).bool()
    return layer(tokens, mask=keep)
