# case: b30-10-clean
# modelled-on: davemeeta/moe-transformer-from-scratch https://github.com/davemeeta/moe-transformer-from-scratch/commit/5f1ac34ee701b71682460bd7e2cac7c77a8554fe
# label: correct
# class: clean
# pattern: a from-scratch mixture-of-experts GPT whose attention is written out by hand to keep the weights inspectable: separate q/k/v projections viewed as (B, T, n_head, head_dim) and transposed to (B, n_head, T, head_dim), rotary embeddings on q and k, (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim), masked_fill(~self.causal_mask[:T, :T], float("-inf")) with a boolean tril buffer registered in __init__, F.softmax over dim=-1, dropout, optional return of the weights
# why: correct: the buffer is torch.tril of a boolean ones matrix, True on keys at or before the query, so ~causal_mask selects the future keys and only those get -inf before the softmax over the keys; head_dim is n_embd // n_head, one head's width, so the scale is 1/sqrt(d_k); the transpose swaps the last two axes of the 4-D keys
# looks-like: ATT002, ATT007
# source: https://github.com/davemeeta/moe-transformer-from-scratch https://github.com/davemeeta/moe-transformer-from-scratch/commit/5f1ac34ee701b71682460bd7e2cac7c77a8554fe src/moe_transformer/model/attention.py
from __future__ import annotations

import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from moe_transformer.config import ModelConfig
from moe_transformer.init import init_weights
from moe_transformer.model.rope import RotaryEmbedding, apply_rotary_pos_emb


class CausalSelfAttention(nn.Module):
    def __init__(self, config: ModelConfig):
        super().__init__()
        self.n_head = config.n_head
        self.head_dim = config.n_embd // config.n_head

        self.q_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.k_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.v_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)
        self.out_proj = nn.Linear(config.n_embd, config.n_embd, bias=config.bias)

        self.rope = RotaryEmbedding(self.head_dim, config.block_size, theta=config.rope_theta)

        self.attn_dropout = nn.Dropout(config.dropout)
        self.resid_dropout = nn.Dropout(config.dropout)

        causal_mask = torch.tril(
            torch.ones(config.block_size, config.block_size, dtype=torch.bool)
        )
        self.register_buffer("causal_mask", causal_mask, persistent=False)

        self.apply(init_weights)

    def forward(
        self, x: torch.Tensor, return_attn_weights: bool = False
    ) -> torch.Tensor | tuple[torch.Tensor, torch.Tensor]:
        B, T, C = x.shape

        q = self.q_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, T, self.n_head, self.head_dim).transpose(1, 2)

        cos, sin = self.rope(T)
        q = apply_rotary_pos_emb(q, cos, sin)
        k = apply_rotary_pos_emb(k, cos, sin)

        attn_scores = (q @ k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        attn_scores = attn_scores.masked_fill(
            ~self.causal_mask[:T, :T], float("-inf")
        )
        attn_weights = F.softmax(attn_scores, dim=-1)
        attn_weights = self.attn_dropout(attn_weights)

        out = attn_weights @ v  # (B, n_head, T, head_dim)
        out = out.transpose(1, 2).contiguous().view(B, T, C)
        out = self.resid_dropout(self.out_proj(out))

        if return_attn_weights:
            return out, attn_weights
        return out
