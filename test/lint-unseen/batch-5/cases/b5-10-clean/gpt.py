# case: b5-10-clean
# modelled-on: pyemma/gpt-from-scratch https://github.com/pyemma/gpt-from-scratch/commit/0314923bd9b093b9bd104e757f8c5e0767bab413
# label: correct
# class: clean
# pattern: a nanoGPT-style causal self-attention that writes its keys and values into a preallocated cache class of another module and reads back every position so far; it then picks one of three SDPA calls by the query and key lengths: is_causal=True when there is no cache or the lengths are equal (prefill), is_causal=False for one query, and otherwise an explicit boolean mask that opens every cached key and a tril block over the new ones
# why: correct: is_causal=True is only reached when q_len == k_len (top-left alignment is right there), a single new token may see every cached key, and the chunk case builds the bottom-right mask by hand (True = attend, SDPA's boolean convention)
# looks-like: ATT002, ATT008
# source: https://github.com/pyemma/gpt-from-scratch https://github.com/pyemma/gpt-from-scratch/commit/0314923bd9b093b9bd104e757f8c5e0767bab413 model/nano.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from kv_buffer import GrowingKVBuffer


class CachedSelfAttention(nn.Module):
    def __init__(self, n_embd, n_head, layer_idx, dropout=0.0, bias=True):
        super().__init__()
        self.layer_idx = layer_idx
        self.n_head = n_head
        self.n_embd = n_embd
        self.qkv = nn.Linear(n_embd, 3 * n_embd, bias=bias)
        self.proj = nn.Linear(n_embd, n_embd, bias=bias)
        self.resid_drop = nn.Dropout(dropout)

    def forward(self, x, cache: GrowingKVBuffer | None):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(self.n_embd, dim=2)
        # (B, T, C) -> (B, nh, T, hs)
        q = q.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, C // self.n_head).transpose(1, 2)
        if cache is not None:
            k, v = cache.write(self.layer_idx, k, v)
        Tq, Tk = q.shape[-2], k.shape[-2]
        if cache is None or Tq == Tk:
            # training, or the prefill of an empty cache: square scores
            y = F.scaled_dot_product_attention(q, k, v, is_causal=True)
        elif Tq == 1:
            # one new token sees every cached key
            y = F.scaled_dot_product_attention(q, k, v, is_causal=False)
        else:
            # several new tokens: all cached keys, causal among the new ones
            allowed = torch.zeros((Tq, Tk), dtype=torch.bool, device=q.device)
            past = Tk - Tq
            allowed[:, :past] = True
            allowed[:, past:] = torch.tril(torch.ones((Tq, Tq), dtype=torch.bool, device=q.device))
            y = F.scaled_dot_product_attention(q, k, v, attn_mask=allowed)
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_drop(self.proj(y))
