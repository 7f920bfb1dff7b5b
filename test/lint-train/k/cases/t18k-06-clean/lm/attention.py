# case: t18k-06-clean
# modelled-on: ayton-zhang/LLM-from-scratch https://github.com/ayton-zhang/LLM-from-scratch/commit/6e3a9c76a741c6421becda5d4bd12f1ab8426d65
# label: correct
# class: clean
# pattern: a course GPT with GQA, RoPE and an optional sliding window with attention sinks: the attention concatenates the cached (already rotated) keys and values with torch.cat, crops them to sink + window, repeats the KV heads and calls SDPA with attn_mask=None and is_causal = kv_cache is None; the model's generate loop (model.py) runs the whole prompt with a list of None caches first, then feeds only the last token with the caches returned
# why: correct: the only call with a cache is the one-token decode step, where is_causal=False lets the single query see every cached key (top-left alignment never matters); the prefill and training calls have no cache, so the keys are exactly the queries' positions and is_causal=True is the right causal mask; SDPA applies 1/sqrt(d_head) once
# looks-like: ATT003, ATT008
# source: https://github.com/ayton-zhang/LLM-from-scratch https://github.com/ayton-zhang/LLM-from-scratch/commit/6e3a9c76a741c6421becda5d4bd12f1ab8426d65 part_3/attn_modern.py
from dataclasses import dataclass
from typing import Optional

import torch
import torch.nn.functional as F
from torch import nn


@dataclass
class KVCache:
    k: torch.Tensor
    v: torch.Tensor


def rotate(x, cos, sin):
    x1, x2 = x[..., ::2], x[..., 1::2]
    return torch.stack([x1 * cos - x2 * sin, x1 * sin + x2 * cos], dim=-1).flatten(-2)


class GroupedAttention(nn.Module):
    def __init__(self, n_embd, n_head, n_kv_head, window: Optional[int] = None, sink: int = 4):
        super().__init__()
        self.n_head, self.n_kv_head = n_head, n_kv_head
        self.d_head = n_embd // n_head
        self.group = n_head // n_kv_head
        self.wq = nn.Linear(n_embd, n_head * self.d_head, bias=False)
        self.wk = nn.Linear(n_embd, n_kv_head * self.d_head, bias=False)
        self.wv = nn.Linear(n_embd, n_kv_head * self.d_head, bias=False)
        self.proj = nn.Linear(n_embd, n_embd, bias=False)
        self.window, self.sink = window, sink

    def forward(self, x, cos, sin, kv_cache: Optional[KVCache] = None):
        b, t, c = x.shape
        q = rotate(self.wq(x).view(b, t, self.n_head, self.d_head).transpose(1, 2), cos, sin)
        k = rotate(self.wk(x).view(b, t, self.n_kv_head, self.d_head).transpose(1, 2), cos, sin)
        v = self.wv(x).view(b, t, self.n_kv_head, self.d_head).transpose(1, 2)

        if kv_cache is not None:
            k_all = torch.cat([kv_cache.k, k], dim=2)
            v_all = torch.cat([kv_cache.v, v], dim=2)
        else:
            k_all, v_all = k, v
        new_cache = KVCache(k_all, v_all)

        if self.window is not None and k_all.size(2) > self.window + self.sink:
            k_all = torch.cat([k_all[:, :, : self.sink], k_all[:, :, -self.window :]], dim=2)
            v_all = torch.cat([v_all[:, :, : self.sink], v_all[:, :, -self.window :]], dim=2)

        if self.group > 1:
            k_all = k_all.repeat_interleave(self.group, dim=1)
            v_all = v_all.repeat_interleave(self.group, dim=1)

        is_causal = kv_cache is None
        y = F.scaled_dot_product_attention(q, k_all, v_all, attn_mask=None, is_causal=is_causal)
        return self.proj(y.transpose(1, 2).contiguous().view(b, t, c)), new_cache
