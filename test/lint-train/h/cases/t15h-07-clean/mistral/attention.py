# case: t15h-07-clean
# modelled-on: sumitdotml/transformers https://github.com/sumitdotml/transformers/commit/f8464dbac2a81ea33eaefb42681dfaa90f023e15
# label: correct
# class: clean
# pattern: a from-scratch Mistral-7B: grouped-query attention with rotary embeddings applied at an absolute offset, a rolling key/value cache that holds the last sliding_window positions, and a mask module that builds an additive mask from absolute positions (k_start = offset + q_len - kv_len; -inf where a key is in the future or older than the window, 0 elsewhere, plus an additive padding bias); the attention multiplies q by 1/sqrt(head_dim), adds the mask to q @ k^T and softmaxes in float32; prefill and one-token decoding run through the same code
# why: correct: the mask is bottom-right aligned by construction (query i sits at absolute position offset + i and the cached keys are numbered from k_start), so a single decoding query sees its whole window and a multi-token prefill stays causal; it is additive (0 / -inf) and added, not used as a keep mask; scaling q before the product is the same 1/sqrt(d_k) scaling; no row is fully masked because each query sees itself
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/sumitdotml/transformers https://github.com/sumitdotml/transformers/commit/f8464dbac2a81ea33eaefb42681dfaa90f023e15 mistral-7b-v0.1/attention.py
import math

import torch
import torch.nn as nn

from mistral.cache import WindowCache
from mistral.window_mask import WindowMask


def rotate_half(x):
    x1, x2 = x.chunk(2, dim=-1)
    return torch.cat((-x2, x1), dim=-1)


class WindowedGQA(nn.Module):
    def __init__(self, d_model, num_heads, num_kv_heads, sliding_window, max_len=4096):
        super().__init__()
        self.num_heads = num_heads
        self.num_kv_heads = num_kv_heads
        self.head_dim = d_model // num_heads
        self.repeats = num_heads // num_kv_heads
        self.wq = nn.Linear(d_model, num_heads * self.head_dim, bias=False)
        self.wk = nn.Linear(d_model, num_kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(d_model, num_kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(num_heads * self.head_dim, d_model, bias=False)
        self.scale = 1.0 / math.sqrt(self.head_dim)
        self.cache = WindowCache(sliding_window)
        self.masks = WindowMask(sliding_window)
        inv = 1.0 / (10000 ** (torch.arange(0, self.head_dim, 2).float() / self.head_dim))
        angles = torch.outer(torch.arange(max_len).float(), inv)
        self.register_buffer("cos", torch.cat([angles.cos(), angles.cos()], dim=-1), persistent=False)
        self.register_buffer("sin", torch.cat([angles.sin(), angles.sin()], dim=-1), persistent=False)

    def rope(self, x, offset):
        t = x.size(2)
        return x * self.cos[offset : offset + t] + rotate_half(x) * self.sin[offset : offset + t]

    def forward(self, x, offset=0, pad_bias=None):
        b, t, _ = x.shape
        q = self.wq(x).view(b, t, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(b, t, self.num_kv_heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(b, t, self.num_kv_heads, self.head_dim).transpose(1, 2)
        q = self.rope(q, offset)
        k = self.rope(k, offset)

        k_win, v_win = self.cache.update(k, v)
        if self.repeats > 1:
            k_win = torch.repeat_interleave(k_win, repeats=self.repeats, dim=1)
            v_win = torch.repeat_interleave(v_win, repeats=self.repeats, dim=1)

        mask = self.masks.build(b, t, k_win.size(2), offset, pad_bias, device=x.device, dtype=x.dtype)
        scores = torch.matmul(q * self.scale, k_win.transpose(2, 3))
        scores = scores + mask
        weights = torch.softmax(scores.float(), dim=-1).to(scores.dtype)
        out = torch.matmul(weights, v_win).transpose(1, 2).contiguous().view(b, t, -1)
        return self.wo(out)
