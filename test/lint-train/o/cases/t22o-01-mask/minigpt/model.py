# case: t22o-01-mask
# modelled-on: ai-clarify/mini-llm https://github.com/ai-clarify/mini-llm/commit/a8036ec97200826d386a02c7ff5993a28a305529
# label: buggy
# class: real-bug
# pattern: a small GPT builds its causal mask once per forward in the model (create_causal_mask) and hands it to every block; the commit "Fix causal masking for autoregressive attention" rewrote the mask as True above the diagonal (True = forbidden, its docstring says that is what scaled_dot_product_attention expects) and passes it unchanged to F.scaled_dot_product_attention, positionally in the legacy multi-head module here and as attn_mask= in the grouped-query module's flash path (gqa.py); the grouped-query module's manual path turns the same boolean mask into an additive one with masked_fill(mask, finfo.min), which is right
# why: buggy: a boolean attn_mask of scaled_dot_product_attention is True where attention is allowed, so a mask that is True on the future lets every query attend only to later tokens (and the last row to nothing, giving NaN); the docstring's claim is the inverse of the PyTorch contract, and the manual path of the same module reads the mask the other way
# source: https://github.com/ai-clarify/mini-llm https://github.com/ai-clarify/mini-llm/commit/a8036ec97200826d386a02c7ff5993a28a305529 src/model/transformer.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F

from .gqa import GroupedQueryAttention


class LegacyAttention(nn.Module):
    """Plain multi-head attention, kept for configs without grouped-query heads."""

    def __init__(self, d_model: int, n_heads: int):
        super().__init__()
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        self.w_o = nn.Linear(d_model, d_model)

    def forward(self, x: torch.Tensor, mask: torch.Tensor | None = None) -> torch.Tensor:
        b, t, d = x.size()
        q = self.w_q(x).reshape(b, t, self.n_heads, self.d_k).transpose(1, 2)
        k = self.w_k(x).reshape(b, t, self.n_heads, self.d_k).transpose(1, 2)
        v = self.w_v(x).reshape(b, t, self.n_heads, self.d_k).transpose(1, 2)
        out = F.scaled_dot_product_attention(q, k, v, mask)  # expect: ATT002
        out = out.transpose(1, 2).contiguous().reshape(b, t, d)
        return self.w_o(out)


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.use_gqa = cfg.use_gqa
        self.norm1 = nn.LayerNorm(cfg.d_model)
        self.norm2 = nn.LayerNorm(cfg.d_model)
        if self.use_gqa:
            self.attention = GroupedQueryAttention(cfg.d_model, cfg.n_heads, cfg.n_kv_heads, flash_attn=cfg.flash_attn)
        else:
            self.attention = LegacyAttention(cfg.d_model, cfg.n_heads)
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, 4 * cfg.d_model), nn.GELU(), nn.Linear(4 * cfg.d_model, cfg.d_model))

    def forward(self, x, mask=None):
        h = self.norm1(x)
        if self.use_gqa:
            attn, _ = self.attention(h, attention_mask=mask)
        else:
            attn = self.attention(h, mask)
        x = x + attn
        return x + self.mlp(self.norm2(x))


class TinyGPT(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.blocks = nn.ModuleList([Block(cfg) for _ in range(cfg.n_layers)])
        self.norm = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)

    def create_causal_mask(self, seq_len: int) -> torch.Tensor:
        """Causal mask for scaled_dot_product_attention.

        PyTorch wants a boolean mask that is True where access is forbidden (or a float mask
        with -inf there), so only the future positions are set.
        """
        mask = torch.zeros((seq_len, seq_len), dtype=torch.bool)
        mask = mask.masked_fill(torch.triu(torch.ones((seq_len, seq_len), dtype=torch.bool), diagonal=1), True)
        return mask

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        _, seq_len = input_ids.size()
        x = self.embed(input_ids)
        causal_mask = self.create_causal_mask(seq_len).to(input_ids.device)
        for block in self.blocks:
            x = block(x, causal_mask)
        return self.head(self.norm(x))
