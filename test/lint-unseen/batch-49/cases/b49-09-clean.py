# case: b49-09-clean
# modelled-on: lucidrains/kronecker-attention-pytorch https://github.com/lucidrains/kronecker-attention-pytorch/commit/38c1efe454abe5520da8dc611965d902e2e7ed9f
# label: correct
# class: clean
# pattern: Kronecker self-attention over a 2-D feature map laid out channels-first (b, c, h, w): the map is summarised by its column means and row means, concatenated into h + w tokens, projected by a 1x1 Conv1d to q, k, v of layout (b, heads, d, n), attended with einsum 'bhdi,bhdj->bhij' and a softmax over j, and the h row outputs and w column outputs are broadcast-added back into an (h, w) map; a residual block wraps it
# why: correct: with channels-first tokens the einsum contracts the feature axis d and leaves (i, j) = (query token, key token), so softmax(dim=-1) normalises over the keys and 'bhij,bhdj->bhdi' takes the weighted sum of values over the same j; the author's attention has no 1/sqrt(d) factor, and nothing in the repository says one was intended (an unscaled dot product is a modelling choice, not a wrong scale); the outer sum reconstructs a map from the row and column outputs as the Kronecker-attention construction does
# looks-like: ATT001, ATT003, ATT005
# source: https://github.com/lucidrains/kronecker-attention-pytorch https://github.com/lucidrains/kronecker-attention-pytorch/commit/38c1efe454abe5520da8dc611965d902e2e7ed9f kronecker_attention_pytorch/kronecker_attention_pytorch.py
import torch
from einops import rearrange
from torch import einsum, nn


class RowColumnAttention(nn.Module):
    def __init__(self, channels, heads, dim_head=32):
        super().__init__()
        inner = heads * dim_head
        self.heads = heads
        self.qkv = nn.Conv1d(channels, 3 * inner, kernel_size=1, bias=False)
        self.proj = nn.Conv1d(inner, channels, kernel_size=1)

    def forward(self, fmap):
        # fmap: (b, c, h, w)
        rows = fmap.shape[-2]
        # h tokens (mean over width) followed by w tokens (mean over height)
        tokens = torch.cat((fmap.mean(dim=-1), fmap.mean(dim=-2)), dim=-1)  # (b, c, h + w)
        q, k, v = rearrange(self.qkv(tokens), "b (three h d) n -> three b h d n", three=3, h=self.heads)
        logits = einsum("bhdi,bhdj->bhij", q, k)
        weights = logits.softmax(dim=-1)
        mixed = einsum("bhij,bhdj->bhdi", weights, v)
        mixed = self.proj(rearrange(mixed, "b h d n -> b (h d) n"))  # (b, c, h + w)
        per_row = mixed[..., :rows].unsqueeze(-1)  # (b, c, h, 1)
        per_col = mixed[..., rows:].unsqueeze(-2)  # (b, c, 1, w)
        return per_row + per_col


class KroneckerBlock(nn.Module):
    def __init__(self, channels, heads=4, dim_head=32):
        super().__init__()
        self.norm = nn.GroupNorm(1, channels)
        self.attn = RowColumnAttention(channels, heads, dim_head)
        self.ff = nn.Sequential(nn.Conv2d(channels, 4 * channels, 1), nn.GELU(), nn.Conv2d(4 * channels, channels, 1))

    def forward(self, x):
        x = x + self.attn(self.norm(x))
        return x + self.ff(x)


if __name__ == "__main__":
    block = KroneckerBlock(64)
    out = block(torch.randn(2, 64, 16, 24))
    assert out.shape == (2, 64, 16, 24)
