# case: b39-09-clean
# modelled-on: ayush-m1911/MiniGPT-From-Scratch https://github.com/ayush-m1911/MiniGPT-From-Scratch/commit/5635e5a9f125835954dd7ccebfa490cfd4ebbb25
# label: correct
# class: clean
# pattern: a small GPT split over modules (a folder: the attention core, the multi-head wrapper that owns the causal mask, a mask helper used by the tests and the decoder block); the core takes Q, K, V of shape (batch, heads, T, head_dim) and a 0/1 lower-triangular mask, divides Q K^T by sqrt(d_k) read from Q, fills mask == 0 with -inf, softmaxes over the last axis and applies dropout; the wrapper registers tril(ones(block, block)).view(1, 1, block, block) once and slices it to [:, :, :T, :T] on every call; the model has no KV cache, every forward pass attends over the whole current window
# why: correct: the mask is 1 on and below the diagonal, so mask == 0 selects exactly the future keys and -inf removes them before the softmax; the slice is square because queries and keys always cover the same T positions (no cached keys), so the top-left slice of the triangle is the right causal mask; the scale is 1/sqrt(head_dim)
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/ayush-m1911/MiniGPT-From-Scratch https://github.com/ayush-m1911/MiniGPT-From-Scratch/commit/5635e5a9f125835954dd7ccebfa490cfd4ebbb25 models/attention.py
import math

import torch
import torch.nn as nn


class MaskedDotProduct(nn.Module):
    def __init__(self, dropout: float = 0.1):
        super().__init__()
        self.drop = nn.Dropout(dropout)

    def forward(self, Q, K, V, mask=None):
        d_k = Q.size(-1)
        logits = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)
        if mask is not None:
            logits = logits.masked_fill(mask == 0, float("-inf"))
        probs = self.drop(torch.softmax(logits, dim=-1))
        return torch.matmul(probs, V), probs
