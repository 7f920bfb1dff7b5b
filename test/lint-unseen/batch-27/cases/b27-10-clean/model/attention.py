# case: b27-10-clean
# modelled-on: GandholiSarat/mtech-llm-from-scratch https://github.com/GandholiSarat/mtech-llm-from-scratch/commit/3c32ae05a61b7c7b50ad578ff0ee3e0c53f950c4
# label: correct
# class: clean
# pattern: a day-by-day course project building a GPT: a first single-head causal self-attention with full-width q/k/v Linears (embed_dim -> embed_dim) scaled by math.sqrt(C) with B, T, C = x.size(), a tril(ones(T, T)) mask filled at mask == 0 with -inf; then a GPT-2 style multi-head module in a second file (one qkv Linear, chunk, view + transpose(1, 2), scale sqrt(head_dim), a registered (1, 1, max_ctx, max_ctx) tril buffer sliced to [:T, :T] and filled where == 0); the transformer block in a third file uses the multi-head module
# why: correct: in the single-head module the queries and keys are C wide (C is the embedding width and the projections keep it), so sqrt(C) is sqrt of the key width, not of a model width shared by heads; in the multi-head module the scale is the per-head width; both masks are lower-triangular keep masks filled where they are 0; every row keeps its diagonal, so -inf makes no NaN; no cache, so the [:T, :T] slice matches queries and keys
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/GandholiSarat/mtech-llm-from-scratch https://github.com/GandholiSarat/mtech-llm-from-scratch/commit/3c32ae05a61b7c7b50ad578ff0ee3e0c53f950c4 model/attention.py
import math

import torch
import torch.nn as nn


class CausalSelfAttention(nn.Module):
    """One head as wide as the embedding."""

    def __init__(self, embed_dim):
        super().__init__()
        self.q_proj = nn.Linear(embed_dim, embed_dim)
        self.k_proj = nn.Linear(embed_dim, embed_dim)
        self.v_proj = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)

    def forward(self, x):
        B, T, C = x.size()
        Q = self.q_proj(x)  # (B, T, C)
        K = self.k_proj(x)  # (B, T, C)
        V = self.v_proj(x)  # (B, T, C)

        attn_scores = Q @ K.transpose(-2, -1)  # (B, T, T)
        attn_scores = attn_scores / math.sqrt(C)

        mask = torch.tril(torch.ones(T, T, device=x.device))
        attn_scores = attn_scores.masked_fill(mask == 0, float("-inf"))

        attn_weights = torch.softmax(attn_scores, dim=-1)  # (B, T, T)
        return self.out_proj(attn_weights @ V)
