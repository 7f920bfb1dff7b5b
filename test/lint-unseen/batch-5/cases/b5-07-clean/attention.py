# case: b5-07-clean
# modelled-on: rafidka/llm-from-scratch https://github.com/rafidka/llm-from-scratch/commit/b00532de2b38fa5addd7ee71098a768fa9e47934
# label: correct
# class: clean
# pattern: a hand-written attention function shared by all models: when causal, it builds triu(ones(k_len, k_len), 1) and keeps its last q_len rows before filling with -inf, and a 0/1 padding keep mask is inverted with logical_not before its own fill; the 1/sqrt(d) scale is applied inside the softmax call; the grouped-query module concatenates a per-layer (k, v) cache that the model in another file threads through its blocks, feeding one new token per step after the prompt
# why: correct: the mask rows [-q_len:] of the square key-length mask align the causal mask bottom-right (a one-token step sees every cached key, a prompt sees its own past), the keep mask is inverted before masked_fill, and the scale divides the scores by sqrt(head_dim) before the softmax over the keys
# looks-like: ATT002, ATT003, ATT008
# source: https://github.com/rafidka/llm-from-scratch https://github.com/rafidka/llm-from-scratch/commit/b00532de2b38fa5addd7ee71098a768fa9e47934 src/llm_from_scratch/attention/scaled_dot_product.py
from math import sqrt

import torch
from torch import Tensor, nn


def dot_attention(q: Tensor, k: Tensor, v: Tensor, causal: bool = False, keep: Tensor | None = None) -> Tensor:
    # q: [..., q_len, d], k/v: [..., k_len, d] -> scores [..., q_len, k_len]
    scores = q @ k.transpose(-1, -2)
    if causal:
        q_len, k_len = q.shape[-2], k.shape[-2]
        future = torch.triu(torch.ones(k_len, k_len, device=q.device, dtype=q.dtype), diagonal=1)[-q_len:, :].bool()
        scores = scores.masked_fill(future, float("-inf"))
    if keep is not None:
        # keep: [..., k_len], 1 at real tokens -> [..., 1, k_len]
        scores = scores.masked_fill(keep.unsqueeze(-2).bool().logical_not(), float("-inf"))
    d = k.shape[-1]
    weights = torch.softmax(scores / sqrt(d), dim=-1)
    return weights @ v


class GroupedAttention(nn.Module):
    def __init__(self, width: int, heads: int, kv_heads: int, causal: bool = True):
        super().__init__()
        self.heads = heads
        self.kv_heads = kv_heads
        self.group = heads // kv_heads
        self.head_dim = width // heads
        self.causal = causal
        self.wq = nn.Linear(width, width, bias=False)
        self.wk = nn.Linear(width, kv_heads * self.head_dim, bias=False)
        self.wv = nn.Linear(width, kv_heads * self.head_dim, bias=False)
        self.wo = nn.Linear(width, width, bias=False)

    def forward(self, x: Tensor, keep: Tensor | None = None, cache: tuple[Tensor, Tensor] | None = None):
        b, n, width = x.shape
        # [b, n, width] -> [b, heads, n, head_dim]; keys/values with kv_heads
        q = self.wq(x).view(b, n, self.heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(b, n, self.kv_heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(b, n, self.kv_heads, self.head_dim).transpose(1, 2)
        if cache:
            past_k, past_v = cache
            k = torch.cat((past_k, k), dim=2)
            v = torch.cat((past_v, v), dim=2)
        new_cache = (k, v)
        total = k.shape[2]
        k = k.view(b, self.kv_heads, 1, total, self.head_dim).expand(-1, -1, self.group, -1, -1).reshape(b, self.heads, total, self.head_dim)
        v = v.view(b, self.kv_heads, 1, total, self.head_dim).expand(-1, -1, self.group, -1, -1).reshape(b, self.heads, total, self.head_dim)
        if keep is not None:
            keep = keep.unsqueeze(-2)  # [b, 1, k_len] -> broadcast over heads
        out = dot_attention(q, k, v, self.causal, keep)
        out = out.transpose(1, 2).contiguous().view(b, n, width)
        return self.wo(out), new_cache
