# case: t44ee-14-clean
# modelled-on: hakonnoren/StableTransformerTinyStories https://github.com/hakonnoren/StableTransformerTinyStories/commit/2125654b667d23ff08fe069afbc966063ef8232a
# label: correct
# class: clean
# pattern: a research GPT trained on TinyStories under bfloat16 autocast (the training script, another file, picks the autocast dtype and the attention kernel from flags): the attention either calls `F.scaled_dot_product_attention(..., attn_mask=None, is_causal=True, scale=self.scale)` or, when a hook wants the weight matrix, computes `(q @ k^T) * scale`, fills `triu(ones(T, T, dtype=bool), diagonal=1)` (True where j > i) with -inf and softmaxes over the last axis
# why: correct: both paths are causal self-attention over the same T queries and keys with no cache; the boolean helper is True strictly above the diagonal, which masked_fill hides, so no row is emptied; -inf is exact in bfloat16; the scale passed to SDPA equals the one of the manual path
# looks-like: ATT002, ATT007, ATT008
# source: https://github.com/hakonnoren/StableTransformerTinyStories https://github.com/hakonnoren/StableTransformerTinyStories/commit/2125654b667d23ff08fe069afbc966063ef8232a model.py
import math
from dataclasses import dataclass

import torch
from torch import nn
import torch.nn.functional as F


@dataclass
class StableConfig:
    vocab_size: int = 50304
    block_size: int = 1024
    n_layer: int = 12
    n_head: int = 12
    n_embd: int = 768
    dropout: float = 0.0
    bias: bool = False
    attn_impl: str = "manual"  # "manual" builds the (B, nh, T, T) matrix, "sdpa" uses the fused kernel


def future_positions(T, device):
    # True where j > i
    return torch.triu(torch.ones(T, T, dtype=torch.bool, device=device), diagonal=1)


class SelfAttention(nn.Module):
    def __init__(self, cfg: StableConfig):
        super().__init__()
        assert cfg.n_embd % cfg.n_head == 0
        self.n_head = cfg.n_head
        self.hd = cfg.n_embd // cfg.n_head
        self.scale = 1.0 / math.sqrt(self.hd)
        self.qkv = nn.Linear(cfg.n_embd, 3 * cfg.n_embd, bias=cfg.bias)
        self.proj = nn.Linear(cfg.n_embd, cfg.n_embd, bias=cfg.bias)
        self.attn_drop = nn.Dropout(cfg.dropout)
        self.p_drop = float(cfg.dropout)
        self.impl = cfg.attn_impl
        self.capture = None  # optional hook that receives the weights

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, self.hd).transpose(1, 2)
        k = k.view(B, T, self.n_head, self.hd).transpose(1, 2)
        v = v.view(B, T, self.n_head, self.hd).transpose(1, 2)
        if self.impl == "sdpa" and self.capture is None:
            y = F.scaled_dot_product_attention(
                q, k, v, attn_mask=None, dropout_p=self.p_drop if self.training else 0.0, is_causal=True, scale=self.scale
            )
        else:
            att = (q @ k.transpose(-2, -1)) * self.scale
            att = att.masked_fill(future_positions(T, x.device).unsqueeze(0).unsqueeze(0), float("-inf"))
            att = F.softmax(att, dim=-1)
            if self.capture is not None:
                self.capture(att)
            y = self.attn_drop(att) @ v
        return self.proj(y.transpose(1, 2).contiguous().view(B, T, C))
