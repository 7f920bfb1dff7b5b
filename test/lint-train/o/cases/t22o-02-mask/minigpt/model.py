# case: t22o-02-mask
# modelled-on: ai-clarify/mini-llm https://github.com/ai-clarify/mini-llm/commit/a80753bf557a824611337d77033cac4f258a6006
# label: buggy
# class: real-bug
# pattern: the same small GPT one commit earlier: create_causal_mask returns torch.tril(torch.ones(T, T)), a float keep mask (1 = visible, 0 = masked, its comment says), built in the model and handed to every block; the legacy multi-head module passes it positionally to F.scaled_dot_product_attention as it is, while the grouped-query module (gqa.py) casts it with .bool() for its flash path and turns it additive with (1.0 - mask) * finfo.min in its manual path
# why: buggy: a float attn_mask is added to the scores, so the 0/1 keep mask adds 1 to the visible positions and 0 to the future ones and masks nothing: the legacy module attends to the future; the grouped-query paths read the same mask correctly (True = attend for the boolean SDPA mask, 1 - keep for the additive one). The author's next commit rewrote the mask (t22o-01-mask), which fixed neither path of the legacy module
# source: https://github.com/ai-clarify/mini-llm https://github.com/ai-clarify/mini-llm/commit/a80753bf557a824611337d77033cac4f258a6006 src/model/transformer.py
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
        """Causal mask (lower triangle): the model must not see future tokens."""
        mask = torch.tril(torch.ones(seq_len, seq_len))
        return mask  # 1 = visible, 0 = masked

    def forward(self, input_ids: torch.Tensor) -> torch.Tensor:
        _, seq_len = input_ids.size()
        x = self.embed(input_ids)
        causal_mask = self.create_causal_mask(seq_len).to(input_ids.device)
        for block in self.blocks:
            x = block(x, causal_mask)
        return self.head(self.norm(x))
