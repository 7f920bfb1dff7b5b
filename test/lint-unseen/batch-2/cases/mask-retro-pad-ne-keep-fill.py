# case: mask-retro-pad-ne-keep-fill
# modelled-on: lucidrains/RETRO-pytorch https://github.com/lucidrains/RETRO-pytorch/commit/0b017369f45f754580714925ca3761271e107620
# label: correct
# class: fixed
# pattern: retrieval transformer: the model's forward builds the mask of the retrieved neighbour tokens from the pad id, reshapes it per encoder row, and hands it through the encoder to an attention module that pads it for a learned null key and fills where ~mask
# why: the fix of commit 0b01736: the model builds a keep mask (retrieved != pad_id), which is what the attention's masked_fill(~mask, ...) expects, so padded neighbour tokens are masked and the null key keeps a fully padded chunk finite
# looks-like: ATT002, ATT007
# source: https://github.com/lucidrains/RETRO-pytorch https://github.com/lucidrains/RETRO-pytorch/commit/0b017369f45f754580714925ca3761271e107620 retro_pytorch/retro_pytorch.py
import torch
import torch.nn.functional as F
from einops import rearrange, repeat
from torch import einsum, nn


def exists(val):
    return val is not None


class Attention(nn.Module):
    def __init__(self, dim, dim_head=64, heads=8, null_kv=True):
        super().__init__()
        self.heads = heads
        self.scale = dim_head ** -0.5
        inner_dim = dim_head * heads
        self.norm = nn.LayerNorm(dim)
        self.to_q = nn.Linear(dim, inner_dim, bias=False)
        self.to_kv = nn.Linear(dim, inner_dim * 2, bias=False)
        self.to_out = nn.Linear(inner_dim, dim)
        # attending to nothing keeps a fully padded chunk from breaking the softmax
        self.null_kv = nn.Parameter(torch.randn(2, inner_dim)) if null_kv else None

    def forward(self, x, mask=None, context=None):
        b, h = x.shape[0], self.heads
        x = self.norm(x)
        kv_input = x if context is None else context
        q = self.to_q(x)
        k, v = self.to_kv(kv_input).chunk(2, dim=-1)
        q, k, v = (rearrange(t, "b n (h d) -> b h n d", h=h) for t in (q, k, v))
        q = q * self.scale

        if exists(self.null_kv):
            nk, nv = (repeat(t, "(h d) -> b h 1 d", b=b, h=h) for t in self.null_kv.unbind(dim=0))
            k = torch.cat((nk, k), dim=-2)
            v = torch.cat((nv, v), dim=-2)

        sim = einsum("b h i d, b h j d -> b h i j", q, k)
        mask_value = -torch.finfo(sim.dtype).max
        if exists(mask):
            if exists(self.null_kv):
                mask = F.pad(mask, (1, 0), value=True)
            mask = rearrange(mask, "b j -> b 1 1 j")
            sim = sim.masked_fill(~mask, mask_value)

        attn = sim.softmax(dim=-1)
        out = einsum("b h i j, b h j d -> b h i d", attn, v)
        return self.to_out(rearrange(out, "b h n d -> b n (h d)"))


class ChunkEncoder(nn.Module):
    def __init__(self, dim, depth=2):
        super().__init__()
        self.layers = nn.ModuleList([Attention(dim) for _ in range(depth)])

    def forward(self, x, mask=None):
        for attn in self.layers:
            x = attn(x, mask=mask) + x
        return x


class RetroLite(nn.Module):
    def __init__(self, num_tokens, dim, pad_id=0):
        super().__init__()
        self.pad_id = pad_id
        self.token_emb = nn.Embedding(num_tokens, dim)
        self.encoder = ChunkEncoder(dim)

    def forward(self, retrieved):
        # retrieved: (b, k chunks, r neighbours, n tokens) token ids
        # assume padding token id (usually 0.) is to be masked out
        mask = retrieved != self.pad_id
        encoder_mask = rearrange(mask, "b k r n -> (b k r) n")
        emb = rearrange(self.token_emb(retrieved), "b k r n d -> (b k r) n d")
        return self.encoder(emb, mask=encoder_mask)
