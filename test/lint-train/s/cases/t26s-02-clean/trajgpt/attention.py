# case: t26s-02-clean
# modelled-on: Xuan-Van/trajectory-transformer https://github.com/Xuan-Van/trajectory-transformer/commit/34f21cad97f3a7fce3b8d62a691be5f3bc7a9fb7
# label: correct
# class: clean
# pattern: a Trajectory Transformer (offline RL over discretised transitions): the config module computes block_size = seq_len * transition_dim - 1 and n_embd = per-head width * n_head; the causal self-attention registers a tril(ones) buffer viewed (1, 1, S, S) and then zeroes every transition_dim-th column of it through self.mask.squeeze()[:, joined_dim - 1::joined_dim] = 0 so that no token attends to earlier value estimates; the forward multiplies q @ k.transpose(-2, -1) by 1.0 / math.sqrt(k.size(-1)), masked_fill(self.mask[:, :, :T, :T] == 0, -inf), softmax(dim=-1)
# why: correct: the buffer is a keep mask (1 on and below the diagonal), so == 0 blocks future keys and, after the column assignment (squeeze() returns a view, so the buffer itself changes), the value-token keys; every row keeps at least its own position or an earlier one (the first zeroed column is transition_dim - 1 > 0), so no row is all -inf; k.size(-1) is the per-head width of the (B, nh, T, hs) keys
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/Xuan-Van/trajectory-transformer https://github.com/Xuan-Van/trajectory-transformer/commit/34f21cad97f3a7fce3b8d62a691be5f3bc7a9fb7 trajectory/models/transformers.py
import math

import torch
import torch.nn as nn
from torch.nn import functional as F

from trajgpt.config import GPTConfig


class CausalSelfAttention(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        assert config.n_embd % config.n_head == 0
        self.key = nn.Linear(config.n_embd, config.n_embd)
        self.query = nn.Linear(config.n_embd, config.n_embd)
        self.value = nn.Linear(config.n_embd, config.n_embd)
        self.attn_drop = nn.Dropout(config.attn_pdrop)
        self.resid_drop = nn.Dropout(config.resid_pdrop)
        self.proj = nn.Linear(config.n_embd, config.n_embd)
        size = config.block_size
        self.register_buffer("mask", torch.tril(torch.ones(size, size)).view(1, 1, size, size))
        # hide the value-estimate token of every earlier transition
        joined_dim = config.observation_dim + config.action_dim + 2
        self.mask.squeeze()[:, joined_dim - 1 :: joined_dim] = 0
        self.n_head = config.n_head

    def forward(self, x):
        B, T, C = x.size()
        hs = C // self.n_head
        k = self.key(x).view(B, T, self.n_head, hs).transpose(1, 2)
        q = self.query(x).view(B, T, self.n_head, hs).transpose(1, 2)
        v = self.value(x).view(B, T, self.n_head, hs).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (1.0 / math.sqrt(k.size(-1)))
        att = att.masked_fill(self.mask[:, :, :T, :T] == 0, float("-inf"))
        att = F.softmax(att, dim=-1)
        self.attn_map = att.clone()
        y = self.attn_drop(att) @ v
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.resid_drop(self.proj(y))


class Block(nn.Module):
    def __init__(self, config: GPTConfig):
        super().__init__()
        self.ln1 = nn.LayerNorm(config.n_embd)
        self.ln2 = nn.LayerNorm(config.n_embd)
        self.attn = CausalSelfAttention(config)
        self.mlp = nn.Sequential(
            nn.Linear(config.n_embd, 4 * config.n_embd),
            nn.GELU(),
            nn.Linear(4 * config.n_embd, config.n_embd),
            nn.Dropout(config.resid_pdrop),
        )

    def forward(self, x):
        x = x + self.attn(self.ln1(x))
        return x + self.mlp(self.ln2(x))
