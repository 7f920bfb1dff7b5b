# case: b21-01-clean
# modelled-on: PhilippThoelke/eeg-transformer https://github.com/PhilippThoelke/eeg-transformer/commit/a09c57edd809d156e5cbc0e6180a679fe24169bb
# label: correct
# class: clean
# pattern: an EEG classifier's own sequence-first multi-head attention (tokens, batch, embed): one qkv projection split three ways; queries reshaped to (tokens, batch * heads, d_head) and permuted to (batch * heads, tokens, d_head), keys reshaped the same way but permuted with (1, 2, 0) straight to (batch * heads, d_head, tokens), so the score product is a plain q @ k; the scale is sqrt(embed / heads) computed once in __init__; softmax over the last axis; the weights are returned reshaped per head
# why: correct: permute(1, 2, 0) already puts the keys in (batch*heads, d_head, tokens) layout, so q @ k is (batch*heads, tokens, tokens) with the key axis last, which the softmax normalises; embed / heads is the per-head width, so the divisor is sqrt(d_head)
# looks-like: ATT004, ATT005
# source: https://github.com/PhilippThoelke/eeg-transformer https://github.com/PhilippThoelke/eeg-transformer/commit/a09c57edd809d156e5cbc0e6180a679fe24169bb src/module.py
import math

import torch
from torch import nn


class HeadedAttention(nn.Module):
    """Self-attention over EEG tokens laid out as (tokens, batch, embed)."""

    def __init__(self, embed, heads, p_drop=0.1):
        super().__init__()
        self.embed = embed
        self.heads = heads
        self.to_qkv = nn.Linear(embed, embed * 3)
        self.proj = nn.Linear(embed, embed)
        self.drop = nn.Dropout(p_drop)
        self.divisor = math.sqrt(embed / heads)

    def forward(self, tokens):
        n_tok, n_batch = tokens.size(0), tokens.size(1)
        q, k, v = self.to_qkv(tokens).split(self.embed, dim=-1)
        # (tokens, batch * heads, d_head) -> (batch * heads, tokens, d_head)
        q = q.reshape(n_tok, n_batch * self.heads, -1).permute(1, 0, 2)
        # (tokens, batch * heads, d_head) -> (batch * heads, d_head, tokens)
        k = k.reshape(n_tok, n_batch * self.heads, -1).permute(1, 2, 0)
        weights = torch.softmax((q @ k) / self.divisor, dim=-1)
        v = v.reshape(n_tok, n_batch * self.heads, -1).permute(1, 0, 2)
        mixed = (weights @ v).permute(1, 0, 2).reshape(tokens.shape)
        mixed = self.drop(self.proj(mixed))
        return mixed, weights.reshape(n_batch, self.heads, n_tok, n_tok)


class EncoderBlock(nn.Module):
    def __init__(self, embed, heads=8, ff_dim=2048, p_drop=0.1):
        super().__init__()
        self.ln_attn = nn.LayerNorm(embed)
        self.ln_ff = nn.LayerNorm(embed)
        self.attn = HeadedAttention(embed, heads, p_drop=p_drop)
        self.ff = nn.Sequential(
            nn.Linear(embed, ff_dim),
            nn.ReLU(),
            nn.Linear(ff_dim, embed),
            nn.ReLU(),
        )
        self.drop = nn.Dropout(p_drop)

    def forward(self, tokens):
        tokens = self.attn(self.ln_attn(tokens))[0] + tokens
        tokens = self.ff(self.ln_ff(tokens)) + tokens
        return self.drop(tokens)


class EEGEncoder(nn.Module):
    def __init__(self, window, embed, depth=4, heads=8, n_classes=2):
        super().__init__()
        self.inp = nn.Linear(window, embed)
        self.blocks = nn.ModuleList([EncoderBlock(embed, heads) for _ in range(depth)])
        self.head = nn.Linear(embed, n_classes)

    def forward(self, windows):
        # windows: (batch, tokens, window) -> (tokens, batch, embed)
        x = self.inp(windows).permute(1, 0, 2)
        for block in self.blocks:
            x = block(x)
        return self.head(x.mean(dim=0))
