# case: b52-01-clean
# modelled-on: asappresearch/sru https://github.com/asappresearch/sru/commit/cac9940668fca8a9d3783f8e128c677b297cba49
# label: correct
# class: clean
# pattern: a folder: the attention sub-layer of an SRU++-style recurrent language model (inputs laid out time-major, (length, batch, dim)); the previous segment's inputs are prepended as memory so keys span mem_len + length positions while queries span only the new length; queries are multiplied by head_dim ** -0.5 before a bmm with the transposed keys; an additive float attn_mask of shape (length, mem_len + length) is added to the scores and a boolean pad mask (True = padding) is applied with masked_fill(-inf) before the softmax over the last axis; the language-model script (other file) builds the additive mask once as triu(ones, 1) * -10000 over 2 * mem_length and slices it [mem_len:mem_len + length, :mem_len + length] on every call
# why: correct: the scale head_dim ** -0.5 is the 1/sqrt(d_k) of these heads, folded into q before the product; the additive mask is a large negative number on the strictly-upper triangle of the full (memory + segment) square, and slicing rows mem_len.. keeps query i (absolute position mem_len + i) able to see every memory key and the segment keys up to itself, i.e. the causal mask aligned bottom-right for a cache-like memory; -10000 added to fp32 scores gives exp(-10000) = 0 after the softmax; the pad mask is True on padding, as masked_fill(-inf) expects; the softmax runs over the key axis
# looks-like: ATT002, ATT003, ATT005, ATT007, ATT008
# source: https://github.com/asappresearch/sru https://github.com/asappresearch/sru/commit/cac9940668fca8a9d3783f8e128c677b297cba49 sru/modules.py
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F
from torch import Tensor


class MemoryAttention(nn.Module):
    """Self-attention over [memory; input] used between the recurrent layers."""

    def __init__(self, d_in: int, d_out: int, d_proj: int, heads: int = 1, attn_drop: float = 0.0):
        super().__init__()
        if d_proj % heads != 0:
            raise ValueError("d_proj must be a multiple of heads")
        self.heads = heads
        self.d_proj = d_proj
        self.attn_drop = attn_drop
        self.in_proj = nn.Linear(d_in, d_proj, bias=False)
        self.kv_proj = nn.Linear(d_proj, 2 * d_proj, bias=False)
        self.out_proj = nn.Linear(d_proj, d_out, bias=False)
        self.norm = nn.LayerNorm(d_proj)
        self.gate = nn.Parameter(torch.zeros(1))

    def forward(
        self,
        x: Tensor,
        pad: Optional[Tensor] = None,
        attn_mask: Optional[Tensor] = None,
        memory: Optional[Tensor] = None,
        memory_pad: Optional[Tensor] = None,
    ) -> Tensor:
        tgt_len, bsz, _ = x.shape
        head_dim = self.d_proj // self.heads
        scaling = float(head_dim) ** -0.5

        if memory is not None:
            mem_len = memory.size(0)
            z = self.in_proj(torch.cat([memory, x], dim=0))
            q = z[mem_len:]
        else:
            mem_len = 0
            z = self.in_proj(x)
            q = z
        residual = q
        src_len = z.size(0)

        k, v = self.kv_proj(self.norm(z)).chunk(2, dim=-1)
        q = q.contiguous().view(tgt_len, bsz * self.heads, head_dim).transpose(0, 1)
        k = k.contiguous().view(src_len, bsz * self.heads, head_dim).transpose(0, 1)
        v = v.contiguous().view(src_len, bsz * self.heads, head_dim).transpose(0, 1)

        q = q * scaling
        scores = torch.bmm(q, k.transpose(1, 2))  # (bsz * heads, tgt_len, src_len)

        if attn_mask is not None:
            if attn_mask.shape != (tgt_len, src_len):
                raise ValueError(f"attn_mask {tuple(attn_mask.shape)} != {(tgt_len, src_len)}")
            scores = scores + attn_mask.unsqueeze(0)

        if pad is not None or memory_pad is not None:
            if pad is None:
                pad = x.new_zeros(tgt_len, bsz, dtype=torch.bool)
            if mem_len > 0:
                if memory_pad is None:
                    memory_pad = x.new_zeros(mem_len, bsz, dtype=torch.bool)
                pad = torch.cat([memory_pad, pad], dim=0)
            scores = scores.view(bsz, self.heads, tgt_len, src_len)
            scores = scores.masked_fill(pad.t()[:, None, None, :], float("-inf"))
            scores = scores.view(bsz * self.heads, tgt_len, src_len)

        probs = F.softmax(scores, dim=-1)
        probs = F.dropout(probs, p=self.attn_drop, training=self.training)
        ctx = torch.bmm(probs, v)
        ctx = ctx.transpose(0, 1).contiguous().view(tgt_len, bsz, self.d_proj)
        return self.out_proj(residual + self.gate * ctx)
