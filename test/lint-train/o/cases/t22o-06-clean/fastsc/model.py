# case: t22o-06-clean
# modelled-on: slaf-project/fast-scgpt https://github.com/slaf-project/fast-scgpt/commit/4f27030d35a942091d97e3e536d79e9fda19d91b
# label: correct
# class: clean
# pattern: a fast single-cell transformer whose attention helpers (attention.py) forward an optional attn_mask and a causal flag to F.scaled_dot_product_attention together (attn_mask=attn_mask, is_causal=causal); the bidirectional encoder always passes causal=False and turns its boolean keep mask (True = attend) into an additive one by casting it to the query dtype (1.0 on real tokens) and filling ~keep with -inf, then calls attention_with_reshape with scale=1/sqrt(d_head)
# why: correct: is_causal is False at the only call site, so SDPA never gets a causal flag with a mask; the additive mask is -inf on padding and a constant +1.0 on every real key of a row, which the softmax cancels (softmax is shift-invariant), so the weights equal a 0/-inf mask's; the explicit scale is the default one
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/slaf-project/fast-scgpt https://github.com/slaf-project/fast-scgpt/commit/4f27030d35a942091d97e3e536d79e9fda19d91b fast_scgpt/model.py
import math

import torch
import torch.nn as nn
from einops import rearrange

from .attention import attention_with_reshape


class EncoderAttention(nn.Module):
    def __init__(self, config) -> None:
        super().__init__()
        self.n_heads = config.n_heads
        self.d_head = config.d_head
        self.dropout_p = config.dropout
        self.q_proj = nn.Linear(config.d_model, config.d_model, bias=config.bias)
        self.k_proj = nn.Linear(config.d_model, config.d_model, bias=config.bias)
        self.v_proj = nn.Linear(config.d_model, config.d_model, bias=config.bias)
        self.out_proj = nn.Linear(config.d_model, config.d_model, bias=config.bias)
        self.scale = 1.0 / math.sqrt(self.d_head)

    def forward(self, x: torch.Tensor, attention_mask: torch.Tensor | None = None) -> torch.Tensor:
        """x: (batch, seq_len, d_model); attention_mask: (batch, seq_len) bool, True for
        positions to attend to, False for padding."""
        q = rearrange(self.q_proj(x), "b s (h d) -> b h s d", h=self.n_heads)
        k = rearrange(self.k_proj(x), "b s (h d) -> b h s d", h=self.n_heads)
        v = rearrange(self.v_proj(x), "b s (h d) -> b h s d", h=self.n_heads)

        # (batch, seq_len) bool -> (batch, 1, 1, seq_len) float
        attn_mask = None
        if attention_mask is not None:
            attn_mask = attention_mask.unsqueeze(1).unsqueeze(2)
            attn_mask = attn_mask.to(dtype=q.dtype)
            attn_mask = attn_mask.masked_fill(~attention_mask.unsqueeze(1).unsqueeze(2), float("-inf"))

        out = attention_with_reshape(
            q,
            k,
            v,
            attn_mask=attn_mask,
            dropout_p=self.dropout_p if self.training else 0.0,
            causal=False,  # bidirectional encoder
            scale=self.scale,
        )
        return self.out_proj(rearrange(out, "b h s d -> b s (h d)"))


class Block(nn.Module):
    def __init__(self, config) -> None:
        super().__init__()
        self.attention = EncoderAttention(config)
        self.norm1 = nn.LayerNorm(config.d_model)
        self.norm2 = nn.LayerNorm(config.d_model)
        self.ff = nn.Sequential(nn.Linear(config.d_model, 4 * config.d_model), nn.GELU(), nn.Linear(4 * config.d_model, config.d_model))
        self.dropout = nn.Dropout(config.dropout)

    def forward(self, x, attention_mask=None):
        x = x + self.dropout(self.attention(self.norm1(x), attention_mask))
        return x + self.dropout(self.ff(self.norm2(x)))
