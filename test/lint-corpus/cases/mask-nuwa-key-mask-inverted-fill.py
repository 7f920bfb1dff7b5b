# case: mask-nuwa-key-mask-inverted-fill
# modelled-on: lucidrains/nuwa-pytorch https://github.com/lucidrains/nuwa-pytorch/commit/f7cc629b244604b50440ac8046a6b341e8fded7e
# label: correct
# pattern: the fixed block: the key mask (True at real tokens) is rearranged to (b, 1, 1, j) and inverted with ~ before masked_fill; the causal branch still fills a triu(1) mask that is True at the future
# why: ~key_mask is True at the padding, which masked_fill hides; the causal mask is True above the diagonal, which is the future to hide; the finite fill keeps fully masked rows finite
# looks-like: ATT002, ATT007
import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from torch import einsum, nn


def exists(val):
    return val is not None


class Attention(nn.Module):
    def __init__(self, *, dim, heads=8, dim_head=64, causal=False):
        super().__init__()
        inner_dim = heads * dim_head
        self.heads = heads
        self.causal = causal
        self.scale = dim_head ** -0.5
        self.to_q = nn.Linear(dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(dim, inner_dim * 2, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)

    def forward(self, x, mask=None):
        h, device = self.heads, x.device
        qkv = (self.to_q(x), *self.to_kv(x).chunk(2, dim=-1))
        q, k, v = map(lambda t: rearrange(t, "b n (h d) -> b h n d", h=h), qkv)
        q = q * self.scale
        sim = einsum("b h i d, b h j d -> b h i j", q, k)
        mask_value = -torch.finfo(x.dtype).max

        if exists(mask):
            mask = rearrange(mask, "b j -> b 1 1 j")
            sim = sim.masked_fill(~mask, mask_value)

        if self.causal:
            i, j = sim.shape[-2:]
            mask = torch.ones(i, j, device=device, dtype=torch.bool).triu_(1)
            sim = sim.masked_fill(mask, mask_value)

        attn = sim.softmax(dim=-1)
        out = einsum("b h i j, b h j d -> b h i d", attn, v)
        out = rearrange(out, "b h n d -> b n (h d)")
        return self.to_out(out)


class TextEncoder(nn.Module):
    def __init__(self, *, num_tokens, dim, depth, max_seq_len=256):
        super().__init__()
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.pos_emb = nn.Embedding(max_seq_len, dim)
        self.layers = nn.ModuleList([Attention(dim=dim) for _ in range(depth)])
        self.norm = nn.LayerNorm(dim)

    def forward(self, text, text_mask=None):
        n, device = text.shape[1], text.device
        x = self.token_emb(text) + self.pos_emb(torch.arange(n, device=device))  # (b, n, d)
        for attn in self.layers:
            x = attn(x, mask=text_mask) + x
        return self.norm(x)


def encode_example():
    encoder = TextEncoder(num_tokens=20000, dim=512, depth=2)
    text = torch.randint(0, 20000, (1, 256))
    mask = torch.ones(1, 256).bool()
    return encoder(text, text_mask=mask)
