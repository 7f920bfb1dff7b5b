# case: b43-06-clean
# modelled-on: lucidrains/g-mlp-pytorch https://github.com/lucidrains/g-mlp-pytorch/commit/970966c10c10770b2098b8f88c7d1f86efbf611b
# label: correct
# class: clean
# pattern: gMLP / aMLP block: the input is projected up, split into a residual half and a gate half; the spatial gating unit mixes the gate along the sequence with a learned (heads, n, n) weight (einsum 'b h n d, h m n -> b h m d') plus a bias, and in causal mode slices the weight to the current length and fills its strictly upper triangle (triu_(1)) with 0; the optional tiny attention of aMLP is one head of width attn_dim, scored with einsum 'b i d, b j d -> b i j' times attn_dim ** -0.5, causal-masked with triu(1) and -finfo.max before a softmax over the keys, and added to the gate
# why: correct: the gating unit is a linear map over positions, not a softmax, so zeroing the weights from future positions is exactly its causal mask (a 0 fill is right here); the tiny attention has a single head whose width is attn_dim, so attn_dim ** -0.5 is 1/sqrt(d_k); triu(1) is True strictly above the diagonal, i.e. on the future keys, and masked_fill fills where True; -finfo.max masks in any dtype
# looks-like: ATT002, ATT004, ATT006, ATT007
# source: https://github.com/lucidrains/g-mlp-pytorch https://github.com/lucidrains/g-mlp-pytorch/commit/970966c10c10770b2098b8f88c7d1f86efbf611b g_mlp_pytorch/g_mlp_pytorch.py
import torch
from einops import rearrange
from torch import einsum, nn


class TinyAttention(nn.Module):
    def __init__(self, dim_in, dim_out, attn_dim, causal=False):
        super().__init__()
        self.scale = attn_dim ** -0.5
        self.causal = causal
        self.qkv = nn.Linear(dim_in, attn_dim * 3, bias=False)
        self.proj = nn.Linear(attn_dim, dim_out)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        logits = einsum("b i d, b j d -> b i j", q, k) * self.scale
        if self.causal:
            later = torch.ones(logits.shape[-2:], device=x.device).triu(1).bool()
            logits.masked_fill_(later[None], -torch.finfo(q.dtype).max)
        probs = logits.softmax(dim=-1)
        return self.proj(einsum("b i j, b j d -> b i d", probs, v))


class SpatialGate(nn.Module):
    def __init__(self, dim, seq_len, causal=False, heads=1, init_eps=1e-3):
        super().__init__()
        self.heads = heads
        self.causal = causal
        self.norm = nn.LayerNorm(dim // 2)
        eps = init_eps / seq_len
        self.weight = nn.Parameter(torch.empty(heads, seq_len, seq_len).uniform_(-eps, eps))
        self.bias = nn.Parameter(torch.ones(heads, seq_len))

    def forward(self, x, extra=None):
        n = x.shape[1]
        res, gate = x.chunk(2, dim=-1)
        gate = self.norm(gate)
        w, b = self.weight, self.bias
        if self.causal:
            w, b = w[:, :n, :n], b[:, :n]
            ahead = torch.ones(w.shape[-2:], device=x.device).triu_(1).bool()
            w = w.masked_fill(ahead[None], 0.0)
        gate = rearrange(gate, "b n (h d) -> b h n d", h=self.heads)
        gate = einsum("b h n d, h m n -> b h m d", gate, w) + rearrange(b, "h n -> 1 h n 1")
        gate = rearrange(gate, "b h n d -> b n (h d)")
        if extra is not None:
            gate = gate + extra
        return gate * res


class GatedMLPBlock(nn.Module):
    def __init__(self, *, dim, dim_ff, seq_len, heads=1, attn_dim=None, causal=False):
        super().__init__()
        self.up = nn.Sequential(nn.Linear(dim, dim_ff), nn.GELU())
        self.tiny_attn = TinyAttention(dim, dim_ff // 2, attn_dim, causal) if attn_dim else None
        self.gate = SpatialGate(dim_ff, seq_len, causal=causal, heads=heads)
        self.down = nn.Linear(dim_ff // 2, dim)

    def forward(self, x):
        extra = self.tiny_attn(x) if self.tiny_attn is not None else None
        return self.down(self.gate(self.up(x), extra=extra))
