# case: t19l-04-scale
# modelled-on: christyxgeorge/minigpt https://github.com/christyxgeorge/minigpt/commit/0cd2b36d31b8cac638d48d30e320ceb6921244ce
# label: buggy
# class: real-bug
# pattern: a GPT-2 module meant to load pretrained weights: separate q/k/v projections of width n_embed, split into heads with view + transpose(1, 2); when F.scaled_dot_product_attention exists it is called with attn_mask=None and is_causal=True (training and full-sequence generation, no KV cache); the fallback path for older PyTorch scales q @ k^T by C**-0.5, with C unpacked from x.shape, fills a (1, 1, block, block) tril buffer's zeros with -inf and applies the softmax
# why: buggy: in the fallback path C is n_embed (768), not the head width (64), so the scores are scaled by 1/sqrt(768) instead of 1/sqrt(64) and the two paths compute different attention; the fixing commit scales by 1 / sqrt(k.size(-1)). The SDPA path is correct: its default scale is 1/sqrt(head width) and is_causal=True is right for a full sequence without a cache
# source: https://github.com/christyxgeorge/minigpt https://github.com/christyxgeorge/minigpt/commit/0cd2b36d31b8cac638d48d30e320ceb6921244ce minigpt/models/gpt_pretrained.py
from dataclasses import dataclass

import torch
import torch.nn as nn
from torch.nn import functional as F


@dataclass
class GPT2Args:
    n_embed: int = 768
    n_layers: int = 12
    n_heads: int = 12
    block_size: int = 1024
    bias: bool = False
    dropout: float = 0.0


class CausalSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.key = nn.Linear(cfg.n_embed, cfg.n_embed, bias=cfg.bias)
        self.query = nn.Linear(cfg.n_embed, cfg.n_embed, bias=cfg.bias)
        self.value = nn.Linear(cfg.n_embed, cfg.n_embed, bias=cfg.bias)
        self.proj = nn.Linear(cfg.n_embed, cfg.n_embed)
        self.attn_drop = nn.Dropout(cfg.dropout)
        self.resid_drop = nn.Dropout(cfg.dropout)
        self.flash = hasattr(F, "scaled_dot_product_attention")
        self.n_heads = cfg.n_heads
        self.head_size = cfg.n_embed // cfg.n_heads
        self.cfg = cfg
        if not self.flash:
            tril = torch.tril(torch.ones(cfg.block_size, cfg.block_size))
            self.register_buffer("tril", tril.view(1, 1, cfg.block_size, cfg.block_size))

    def _split(self, x):
        B, T, _ = x.size()
        return x.view(B, T, self.n_heads, self.head_size).transpose(1, 2)

    def _merge(self, x):
        B, _, T, _ = x.size()
        return x.transpose(1, 2).contiguous().view(B, T, self.cfg.n_embed)

    def forward(self, x):
        _, T, C = x.shape
        q = self._split(self.query(x))
        k = self._split(self.key(x))
        v = self._split(self.value(x))
        if self.flash:
            out = F.scaled_dot_product_attention(
                q,
                k,
                v,
                attn_mask=None,
                dropout_p=self.cfg.dropout if self.training else 0,
                is_causal=True,
            )
        else:
            att = q @ k.transpose(-2, -1) * C**-0.5  # expect: ATT004
            att = att.masked_fill(self.tril[:, :, :T, :T] == 0, float("-inf"))
            att = F.softmax(att, dim=-1)
            out = self.attn_drop(att) @ v
        return self.resid_drop(self.proj(self._merge(out)))
