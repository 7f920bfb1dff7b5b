# case: b23-10-scale
# modelled-on: Heshtin/Chess-Transformer https://github.com/Heshtin/Chess-Transformer/commit/feb5839622e975b5569e36bb41338dbce1337cb0
# label: buggy
# class: real-bug
# pattern: a chess position encoder (one token per square, the first token a board summary) whose self-attention is written by hand in place of F.scaled_dot_product_attention (left commented out next to it): separate Q/K/V linears, heads split with view(...).transpose(1, 2), logits q @ k.transpose(-2, -1), plus a learnt per-position bias ("smolgen") projected from the summary token and reshaped to (B, heads, T, T), then softmax(dim=-1)
# why: buggy: the hand-written path drops the 1/sqrt(head_size) that the SDPA call it replaces applies (and that the smolgen design it follows uses), so the softmax receives unscaled dot products of width C // n_head; the authors' next version of the block goes back to F.scaled_dot_product_attention with the bias passed as attn_mask. The bias, the transpose and the axis are right
# source: https://github.com/Heshtin/Chess-Transformer https://github.com/Heshtin/Chess-Transformer/commit/feb5839622e975b5569e36bb41338dbce1337cb0 src/models/model0/blocks2.py
import torch
import torch.nn as nn
import torch.nn.functional as F


class SquareSelfAttention(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        assert cfg.n_embd % cfg.n_head == 0
        self.q_proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.k_proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.v_proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.to_bias = nn.Linear(cfg.n_embd, cfg.n_head * cfg.n_tokens * cfg.n_tokens)
        self.c_proj = nn.Linear(cfg.n_embd, cfg.n_embd)
        self.n_head = cfg.n_head
        self.n_embd = cfg.n_embd

    def forward(self, x):
        b, t, c = x.size()  # batch, tokens (squares), channels = n_head * head_size
        q = self.q_proj(x).view(b, t, self.n_head, c // self.n_head).transpose(1, 2)  # (B, nh, T, hs)
        k = self.k_proj(x).view(b, t, self.n_head, c // self.n_head).transpose(1, 2)
        v = self.v_proj(x).view(b, t, self.n_head, c // self.n_head).transpose(1, 2)
        a1 = q @ k.transpose(-2, -1)  # (B, nh, T, T)
        summary = x[:, 0:1, :].squeeze(1)  # (B, C): the board-overview token
        a2 = self.to_bias(summary).view(b, self.n_head, t, t)  # learnt attention bias
        att = a1 + a2
        att = F.softmax(att, dim=-1)  # expect: ATT003
        y = att @ v  # (B, nh, T, hs)
        # y = F.scaled_dot_product_attention(q, k, v)
        y = y.transpose(1, 2).contiguous().view(b, t, c)
        return self.c_proj(y)


class Block(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        self.ln_1 = nn.LayerNorm(cfg.n_embd)
        self.attn = SquareSelfAttention(cfg)
        self.ln_2 = nn.LayerNorm(cfg.n_embd)
        self.mlp = nn.Sequential(nn.Linear(cfg.n_embd, cfg.n_embd), nn.GELU(), nn.Linear(cfg.n_embd, cfg.n_embd))
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x):
        x = x + self.drop(self.attn(self.ln_1(x)))
        return x + self.drop(self.mlp(self.ln_2(x)))
