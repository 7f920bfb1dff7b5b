# case: b39-11-clean
# modelled-on: Arijit963/miniGPT-from-scratch https://github.com/Arijit963/miniGPT-from-scratch/commit/1e6f196cabdfd4e1164992de05490d32497114a3
# label: correct
# class: clean
# pattern: a character-level mini GPT that turns questions into SQL (a folder: the multi-head attention, the model, and the greedy inference loop); the attention splits heads to (B, heads, T, head_dim), divides q @ k^T by sqrt(head_dim), builds tril(ones(T, T)) inside every forward call and fills mask == 0 with -inf before softmax(dim=-1); inference keeps the last block_size tokens, re-runs the model on that window each step with no key/value cache, takes the logits of the last position and stops at ';'
# why: correct: the lower triangle is 1 on and below the diagonal, so mask == 0 removes exactly the future keys; the mask is rebuilt from the current T on each call and queries and keys always span the same window (no cached keys), so the square causal mask is aligned; the scale is 1/sqrt(head_dim)
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/Arijit963/miniGPT-from-scratch https://github.com/Arijit963/miniGPT-from-scratch/commit/1e6f196cabdfd4e1164992de05490d32497114a3 src/multihead_attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class HeadedSelfAttention(nn.Module):
    def __init__(self, embed_dim, num_heads):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.q_lin = nn.Linear(embed_dim, embed_dim, bias=False)
        self.k_lin = nn.Linear(embed_dim, embed_dim, bias=False)
        self.v_lin = nn.Linear(embed_dim, embed_dim, bias=False)
        self.merge = nn.Linear(embed_dim, embed_dim)

    def _heads(self, t, B, T):
        return t.view(B, T, self.num_heads, self.head_dim).transpose(1, 2)

    def forward(self, x):
        B, T, C = x.shape
        q = self._heads(self.q_lin(x), B, T)
        k = self._heads(self.k_lin(x), B, T)
        v = self._heads(self.v_lin(x), B, T)

        scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        allowed = torch.tril(torch.ones(T, T, device=x.device))
        scores = scores.masked_fill(allowed == 0, float("-inf"))
        weights = F.softmax(scores, dim=-1)

        out = (weights @ v).transpose(1, 2).contiguous().view(B, T, C)
        return self.merge(out)
