# case: b13-07-clean
# modelled-on: zarakiiiii/tinygpt-kv-cache https://github.com/zarakiiiii/tinygpt-kv-cache/commit/d642714cbb0c03ee46d491af92944d7a2a6114a5
# label: correct
# class: clean
# pattern: a tiny GPT with a hand-written KV cache: multi-head attention concatenates the cached keys and values on the time axis, scales q @ k^T by sqrt(head_dim), and applies its registered bool tril mask (masked_fill where mask == 0 with -inf) only when no cache is passed; the cached generator feeds the whole prompt once with past_kv=None and then exactly one new token per step
# why: correct: without a cache the (T, T) tril slice masks the future; with a cache the generator only ever passes the single newest token, whose query may see every cached key and itself, so leaving the scores unmasked is the right (bottom-right aligned) causal pattern for one query; the mask is a keep mask and the fill goes where it is 0; the model offsets positions by the cached length; what a naive linter could misread: ATT008 (a causal mask skipped when a KV cache is present, mask sliced [:T, :T]), ATT002 (mask == 0), ATT007 (-inf fill), ATT004 (head_dim ** 0.5 computed from d_model // n_heads)
# looks-like: ATT002, ATT004, ATT007, ATT008
# source: https://github.com/zarakiiiii/tinygpt-kv-cache https://github.com/zarakiiiii/tinygpt-kv-cache/commit/d642714cbb0c03ee46d491af92944d7a2a6114a5 models/attention.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedMultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int, block_size: int):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model, bias=False)
        self.proj = nn.Linear(d_model, d_model)
        self.register_buffer("mask", torch.tril(torch.ones(block_size, block_size, dtype=torch.bool)))

    def forward(self, x, past_kv=None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q = q.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = k.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = v.view(B, T, self.n_heads, self.head_dim).transpose(1, 2)

        if past_kv is not None:
            past_k, past_v = past_kv
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)
        new_kv = (k, v)

        scores = q @ k.transpose(-2, -1) / (self.head_dim**0.5)  # (B, H, T, T_past + T)
        if past_kv is None:
            # the prompt pass: hide future positions
            scores = scores.masked_fill(self.mask[:T, :T] == 0, float("-inf"))
        # with a cache the caller passes one new token, which may see everything cached

        weights = F.softmax(scores, dim=-1)
        out = (weights @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.proj(out), new_kv
