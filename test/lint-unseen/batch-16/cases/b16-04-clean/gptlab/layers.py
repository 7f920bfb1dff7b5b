# case: b16-04-clean
# modelled-on: ericheee111/miniGPT https://github.com/ericheee111/miniGPT/commit/6c46cf4ee0087333dad1e82ae7a388a8dabadfd7
# label: correct
# class: clean
# pattern: a from-scratch GPT with a KV cache: the attention registers tril(ones(block, block), bool) as a keep mask, and for a step with `past_length` cached tokens slices rows past_length : past_length + T and columns :key_length (bottom-right aligned), or takes an explicit keep mask built in the model module for right-padded batched prefill (key_pos <= query_pos AND key_pos < prompt_length); it fills ~allowed with finfo(dtype).min before the softmax
# why: correct: the slice offsets the causal rows by the cache length, so a new query sees every cached key and the new keys up to itself; the explicit prefill mask is a keep mask (True = may attend) and is inverted with ~ for masked_fill, which fills where True; finfo.min is finite in every dtype and no row is fully masked (each query sees at least key 0)
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/ericheee111/miniGPT https://github.com/ericheee111/miniGPT/commit/6c46cf4ee0087333dad1e82ae7a388a8dabadfd7 src/minigpt/layers.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, block_size, dropout=0.0):
        super().__init__()
        self.n_head = n_head
        self.n_embd = n_embd
        self.head_size = n_embd // n_head
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.proj = nn.Linear(n_embd, n_embd)
        self.drop = nn.Dropout(dropout)
        keep = torch.tril(torch.ones(block_size, block_size, dtype=torch.bool)).view(1, 1, block_size, block_size)
        self.register_buffer("causal_mask", keep, persistent=False)

    def split(self, h):
        b, t, _ = h.shape
        q, k, v = self.qkv(h).split(self.n_embd, dim=-1)
        shape = (b, t, self.n_head, self.head_size)
        return q.view(shape).transpose(1, 2), k.view(shape).transpose(1, 2), v.view(shape).transpose(1, 2)

    def forward(self, h, cache=None, allowed=None):
        q, k, v = self.split(h)
        past_length = 0
        if cache is not None:
            past_length = cache[0].shape[2]
            k = torch.cat((cache[0], k), dim=2)
            v = torch.cat((cache[1], v), dim=2)
        return self.attend(q, k, v, past_length, allowed), (k.detach(), v.detach())

    def attend(self, q, k, v, past_length, allowed=None):
        b, _, t, _ = q.shape
        scores = q @ k.transpose(-2, -1) / math.sqrt(self.head_size)
        if allowed is None:
            allowed = self.causal_mask[:, :, past_length : past_length + t, : k.shape[2]]
        scores = scores.masked_fill(~allowed, torch.finfo(scores.dtype).min)
        weights = self.drop(F.softmax(scores, dim=-1))
        ctx = (weights @ v).transpose(1, 2).contiguous().view(b, t, self.n_embd)
        return self.proj(ctx)
