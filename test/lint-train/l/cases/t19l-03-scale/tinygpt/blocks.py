# case: t19l-03-scale
# modelled-on: christyxgeorge/minigpt https://github.com/christyxgeorge/minigpt/commit/8fa250823b77454af7615a32c3c39ac61dcb3b5a
# label: correct
# class: fixed
# pattern: a character-level GPT trainer following the "build GPT from scratch" lecture: the config module sets n_embed = 32 and n_heads = 4; a multi-head module builds n_heads single-head modules of width n_embed // n_heads and concatenates their outputs; each head projects x (B, T, C) to (B, T, head_size) and scales q @ k^T by k.size(-1) ** -0.5 (the fix; C is still unpacked from x.shape), then applies a tril causal mask and the softmax
# why: correct: k.size(-1) is the head width (n_embed // n_heads), the scale of each head's scores; the tril mask keeps positions on and below the diagonal (== 0 selects the future), filled with -inf before the softmax over the key axis, and the diagonal is never masked
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/christyxgeorge/minigpt https://github.com/christyxgeorge/minigpt/commit/8fa250823b77454af7615a32c3c39ac61dcb3b5a minigpt/models/blocks.py, minigpt/config.py
import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    """One causal attention head of a given width."""

    def __init__(self, cfg, head_size):
        super().__init__()
        self.key = nn.Linear(cfg.n_embed, head_size, bias=cfg.bias)
        self.query = nn.Linear(cfg.n_embed, head_size, bias=cfg.bias)
        self.value = nn.Linear(cfg.n_embed, head_size, bias=cfg.bias)
        self.register_buffer("tril", torch.tril(torch.ones(cfg.block_size, cfg.block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)  # B x T x hs
        q = self.query(x)  # B x T x hs
        wei = q @ k.transpose(-2, -1) * k.size(-1) ** -0.5  # scaled by head size
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        return wei @ self.value(x)


class MultiHead(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        head_size = cfg.n_embed // cfg.n_heads
        self.heads = nn.ModuleList([Head(cfg, head_size) for _ in range(cfg.n_heads)])
        self.proj = nn.Linear(cfg.n_embed, cfg.n_embed)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x):
        return self.drop(self.proj(torch.cat([h(x) for h in self.heads], dim=-1)))


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.sa = MultiHead(cfg)
        self.ff = nn.Sequential(nn.Linear(cfg.n_embed, 4 * cfg.n_embed), nn.ReLU(), nn.Linear(4 * cfg.n_embed, cfg.n_embed))
        self.ln1 = nn.LayerNorm(cfg.n_embed)
        self.ln2 = nn.LayerNorm(cfg.n_embed)

    def forward(self, x):
        x = x + self.sa(self.ln1(x))
        return x + self.ff(self.ln2(x))
