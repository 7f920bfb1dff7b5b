# case: b42-03-clean
# modelled-on: AkshatJohri242009/Project_LLM https://github.com/AkshatJohri242009/Project_LLM/commit/0563974002377d3fd3c969824e6c2626ef339378
# label: correct
# class: clean
# pattern: GPT-style causal self-attention with rotary embeddings and a KV cache: the keys and values of this call are appended to the cached ones, the additive causal mask is built for (new queries x all keys) from absolute positions (query i sits at past + i, key j is blocked when j > past + i), a (batch, total) 1/0 padding mask is applied with masked_fill(== 0, -inf), and the softmax runs in float32 over the keys; scale head_dim ** -0.5
# why: correct: with past keys in front, a query's absolute position is past_len + i, so blocking keys j > past_len + i is the bottom-right-aligned causal mask that cached decoding and chunked prefill need (with no cache it is the usual triangle); the padding mask is 1 for real tokens, so filling == 0 with -inf masks padding; the rotary offset is the same past_len
# looks-like: ATT002, ATT006, ATT008
# source: https://github.com/AkshatJohri242009/Project_LLM https://github.com/AkshatJohri242009/Project_LLM/commit/0563974002377d3fd3c969824e6c2626ef339378 model/transformer.py
from typing import Optional, Tuple

import torch
from torch import nn
from torch.nn import functional as F


def cached_causal_bias(n_new: int, n_all: int, device) -> torch.Tensor:
    """Additive (1, 1, n_new, n_all) bias: -inf where a key lies in the query's future."""
    offset = n_all - n_new
    q_pos = torch.arange(offset, n_all, device=device)[:, None]
    k_pos = torch.arange(n_all, device=device)[None, :]
    bias = torch.zeros(n_new, n_all, device=device)
    bias = bias.masked_fill(k_pos > q_pos, float("-inf"))
    return bias[None, None]


def rope_tables(n, dim, offset, device, base=10000.0):
    inv = 1.0 / base ** (torch.arange(0, dim, 2, device=device).float() / dim)
    ang = torch.outer(torch.arange(offset, offset + n, device=device).float(), inv)
    return ang.cos().repeat_interleave(2, -1), ang.sin().repeat_interleave(2, -1)


def rotate(x, cos, sin):
    pairs = torch.stack((-x[..., 1::2], x[..., ::2]), dim=-1).flatten(-2)
    return x * cos + pairs * sin


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, dropout: float = 0.0):
        super().__init__()
        if d_model % n_heads:
            raise ValueError("d_model must split evenly into heads")
        self.h = n_heads
        self.dh = d_model // n_heads
        self.wq = nn.Linear(d_model, d_model, bias=False)
        self.wk = nn.Linear(d_model, d_model, bias=False)
        self.wv = nn.Linear(d_model, d_model, bias=False)
        self.wo = nn.Linear(d_model, d_model, bias=False)
        self.drop = nn.Dropout(dropout)
        self.factor = self.dh ** -0.5

    def heads(self, t):
        b, n, _ = t.shape
        return t.view(b, n, self.h, self.dh).transpose(1, 2)

    def forward(
        self,
        x: torch.Tensor,
        pad_mask: Optional[torch.Tensor] = None,
        past: Optional[Tuple[torch.Tensor, torch.Tensor]] = None,
        use_cache: bool = False,
    ):
        b, n, _ = x.shape
        q, k, v = self.heads(self.wq(x)), self.heads(self.wk(x)), self.heads(self.wv(x))
        seen = 0 if past is None else past[0].shape[2]
        cos, sin = rope_tables(n, self.dh, seen, x.device)
        q, k = rotate(q, cos, sin), rotate(k, cos, sin)
        if past is not None:
            k = torch.cat((past[0], k), dim=2)
            v = torch.cat((past[1], v), dim=2)
        cache = (k, v) if use_cache else None

        n_all = k.shape[2]
        logits = (q @ k.transpose(-2, -1)) * self.factor
        logits = logits + cached_causal_bias(n, n_all, x.device).to(logits.dtype)
        if pad_mask is not None:
            keep = pad_mask[:, None, None, :n_all].to(logits.device)
            logits = logits.masked_fill(keep == 0, float("-inf"))
        probs = self.drop(F.softmax(logits.float(), dim=-1).to(q.dtype))
        y = (probs @ v).transpose(1, 2).reshape(b, n, -1)
        return self.wo(y), cache
