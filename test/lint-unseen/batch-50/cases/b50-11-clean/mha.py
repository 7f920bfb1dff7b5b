# case: b50-11-clean
# modelled-on: Ayesha-Najeeb7/text2sql https://github.com/Ayesha-Najeeb7/text2sql/commit/d41d50a900eda6752cf67ea17c46ffc3884cc8a5
# label: correct
# class: clean
# pattern: a folder: a from-scratch encoder-decoder Transformer for text-to-SQL; the model file builds boolean masks that are True where attention is allowed (padding: ids != PAD as (B, 1, L); target: padding & lower-triangular (1, T, T)); the attention module adds a head axis to 3-D masks, fills ~mask with -inf before the softmax over the last axis, and replaces NaN rows by zeros after it
# why: correct: the masks are documented and built as True = may attend, so ~mask is the set to hide and -inf lands on padding keys and future positions; the softmax runs over the key axis of (B, h, Lq, Lk) and the scale is 1/sqrt(d_k) with d_k = d_model / h; no row is ever fully masked (every target row sees its own non-padding first token and the source always has real tokens), so nan_to_num never fires and is a guard only, not a mask applied after the softmax; the decoder re-runs the whole prefix at each greedy step, with no cache
# looks-like: ATT002, ATT005, ATT006, ATT007, ATT008
# source: https://github.com/Ayesha-Najeeb7/text2sql https://github.com/Ayesha-Najeeb7/text2sql/commit/d41d50a900eda6752cf67ea17c46ffc3884cc8a5 model/attention.py
import math

import torch
import torch.nn as nn


def attend(q, k, v, allowed=None):
    """q (..., Lq, d), k (..., Lk, d), v (..., Lk, dv); allowed: bool, True = may attend."""
    logits = q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))
    if allowed is not None:
        logits = logits.masked_fill(~allowed, float("-inf"))
    probs = torch.softmax(logits, dim=-1)
    probs = torch.nan_to_num(probs, nan=0.0)  # only a fully hidden row could be NaN
    return probs @ v, probs


class MultiHead(nn.Module):
    def __init__(self, d_model=256, heads=4):
        super().__init__()
        assert d_model % heads == 0
        self.heads = heads
        self.d_head = d_model // heads
        self.q_lin = nn.Linear(d_model, d_model)
        self.k_lin = nn.Linear(d_model, d_model)
        self.v_lin = nn.Linear(d_model, d_model)
        self.o_lin = nn.Linear(d_model, d_model)
        self.last_probs = None

    def split(self, x):
        b, n, _ = x.shape
        return x.view(b, n, self.heads, self.d_head).transpose(1, 2)

    def forward(self, query, key, value, allowed=None):
        if allowed is not None and allowed.dim() == 3:
            allowed = allowed.unsqueeze(1)  # one mask for every head
        out, probs = attend(self.split(self.q_lin(query)), self.split(self.k_lin(key)), self.split(self.v_lin(value)), allowed)
        self.last_probs = probs.detach()
        b, _, n, _ = out.shape
        return self.o_lin(out.transpose(1, 2).reshape(b, n, self.heads * self.d_head))
