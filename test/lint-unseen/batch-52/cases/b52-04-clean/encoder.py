# case: b52-04-clean
# modelled-on: Lumin-Science/Nano-ProteinLM https://github.com/Lumin-Science/Nano-ProteinLM/commit/2277015d87af4277af509f343499aaea20a99089
# label: correct
# class: clean
# pattern: a folder: the self-attention of a small masked protein language model (bidirectional); the batch sampler (other file) returns token ids and a boolean mask that is True on BOS, residues and EOS and False on padding; the layer slices it to mask[:, None, None, :] and hands it to scaled_dot_product_attention as attn_mask with is_causal=False and the default scale; when attention maps are requested it computes the scores itself with head_dim ** -0.5, fills ~mask with torch.finfo(dtype).min and takes the softmax in float32
# why: correct: a boolean attn_mask for scaled_dot_product_attention means True = may attend, and the sampler's mask is True exactly on the real tokens, so padding keys are excluded; a masked language model sees both directions, so is_causal=False is intended; the explicit path inverts the same mask for masked_fill (which fills where True), uses the same 1/sqrt(head_dim) scale as SDPA's default, and finfo(dtype).min is the most negative value of the score dtype, so it cannot overflow in half precision; no row is fully masked because every sequence keeps at least BOS and EOS
# looks-like: ATT002, ATT003, ATT007, ATT008
# source: https://github.com/Lumin-Science/Nano-ProteinLM https://github.com/Lumin-Science/Nano-ProteinLM/commit/2277015d87af4277af509f343499aaea20a99089 nano_protein/model.py
from __future__ import annotations

import torch
import torch.nn.functional as F
from torch import nn


def rotate_half(x: torch.Tensor) -> torch.Tensor:
    a, b = x.chunk(2, dim=-1)
    return torch.cat((-b, a), dim=-1)


class Rotary(nn.Module):
    def __init__(self, dim: int) -> None:
        super().__init__()
        inv = 1.0 / (10_000 ** (torch.arange(0, dim, 2, dtype=torch.float32) / dim))
        self.register_buffer("inv_freq", inv, persistent=False)

    def forward(self, q: torch.Tensor, k: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        n = q.shape[-2]
        ang = torch.outer(torch.arange(n, device=q.device, dtype=torch.float32), self.inv_freq)
        cos = torch.cat((ang.cos(), ang.cos()), dim=-1).to(q.dtype)
        sin = torch.cat((ang.sin(), ang.sin()), dim=-1).to(q.dtype)
        return q * cos + rotate_half(q) * sin, k * cos + rotate_half(k) * sin


class ResidueSelfAttention(nn.Module):
    def __init__(self, width: int, heads: int, head_dim: int = 64) -> None:
        super().__init__()
        if width != heads * head_dim:
            raise ValueError("width must equal heads * head_dim")
        self.heads = heads
        self.head_dim = head_dim
        self.pre_norm = nn.LayerNorm(width)
        self.to_qkv = nn.Linear(width, 3 * width, bias=False)
        self.q_ln = nn.LayerNorm(width, bias=False)
        self.k_ln = nn.LayerNorm(width, bias=False)
        self.out = nn.Linear(width, width, bias=False)
        self.rotary = Rotary(head_dim)

    def forward(self, x: torch.Tensor, keep: torch.Tensor | None, return_maps: bool = False):
        b, n, w = x.shape
        q, k, v = self.to_qkv(self.pre_norm(x)).chunk(3, dim=-1)
        q = self.q_ln(q).view(b, n, self.heads, self.head_dim).transpose(1, 2)
        k = self.k_ln(k).view(b, n, self.heads, self.head_dim).transpose(1, 2)
        v = v.view(b, n, self.heads, self.head_dim).transpose(1, 2)
        q, k = self.rotary(q, k)
        key_keep = None if keep is None else keep[:, None, None, :]

        maps = None
        if return_maps:
            logits = (q @ k.transpose(-1, -2)) * (self.head_dim ** -0.5)
            if key_keep is not None:
                logits = logits.masked_fill(~key_keep, torch.finfo(logits.dtype).min)
            maps = torch.softmax(logits.float(), dim=-1).to(q.dtype)
            ctx = maps @ v
        else:
            ctx = F.scaled_dot_product_attention(q, k, v, attn_mask=key_keep, dropout_p=0.0, is_causal=False)
        return self.out(ctx.transpose(1, 2).reshape(b, n, w)), maps


class ResidueLM(nn.Module):
    def __init__(self, vocab: int, width: int, heads: int, depth: int) -> None:
        super().__init__()
        self.embed = nn.Embedding(vocab, width)
        self.layers = nn.ModuleList([ResidueSelfAttention(width, heads) for _ in range(depth)])
        self.mlps = nn.ModuleList([nn.Sequential(nn.LayerNorm(width), nn.Linear(width, 4 * width), nn.GELU(), nn.Linear(4 * width, width)) for _ in range(depth)])
        self.norm = nn.LayerNorm(width)
        self.lm_head = nn.Linear(width, vocab)

    def forward(self, tokens: torch.Tensor, keep: torch.Tensor | None = None):
        h = self.embed(tokens)
        for attn, mlp in zip(self.layers, self.mlps):
            h = h + attn(h, keep)[0]
            h = h + mlp(h)
        return self.lm_head(self.norm(h))
