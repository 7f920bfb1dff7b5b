# case: t44ff-19-clean
# modelled-on: carlosjaka54/mini-llm https://github.com/carlosjaka54/mini-llm/commit/11baeae7422624f6c5424fd958f86343d60b22b4
# label: correct
# class: clean
# pattern: a teaching GPT with two attention paths behind a `use_sdpa` flag: SDPA with `is_causal=True` and dropout only in training, or a manual path with a `triu(ones, diagonal=1)` boolean "future" mask filled with -inf and softmax over -1; the block size is checked in `forward`; the sampling module (another file) crops every prompt to the last `block_size` tokens and re-runs the whole window for each new token, with no KV cache anywhere
# why: correct: without a cache the queries and keys are the same T positions, so SDPA's top-left causal mask is the right one and no attn_mask is passed with it; in the manual path the True entries of `triu(diagonal=1)` are the future keys, which get -inf; both paths scale by 1/sqrt(head_dim)
# looks-like: ATT002, ATT008
# source: https://github.com/carlosjaka54/mini-llm https://github.com/carlosjaka54/mini-llm/commit/11baeae7422624f6c5424fd958f86343d60b22b4 src/mini_llm/model.py
import math
from dataclasses import dataclass

import torch
from torch import nn
from torch.nn import functional as F


@dataclass
class TinyConfig:
    vocab_size: int
    block_size: int
    n_layer: int
    n_head: int
    n_embd: int
    dropout: float = 0.0
    bias: bool = False


class CausalAttention(nn.Module):
    def __init__(self, c: TinyConfig):
        super().__init__()
        if c.n_embd % c.n_head:
            raise ValueError("n_embd must be divisible by n_head")
        self.n_head = c.n_head
        self.hd = c.n_embd // c.n_head
        self.p_drop = c.dropout
        self.c_attn = nn.Linear(c.n_embd, 3 * c.n_embd, bias=c.bias)
        self.c_proj = nn.Linear(c.n_embd, c.n_embd, bias=c.bias)
        self.use_sdpa = True

    def forward(self, x):
        B, T, C = x.shape
        q, k, v = self.c_attn(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, self.hd).transpose(1, 2)
        k = k.view(B, T, self.n_head, self.hd).transpose(1, 2)
        v = v.view(B, T, self.n_head, self.hd).transpose(1, 2)
        if self.use_sdpa:
            y = F.scaled_dot_product_attention(q, k, v, dropout_p=self.p_drop if self.training else 0.0, is_causal=True)
        else:
            y = self.by_hand(q, k, v)
        return self.c_proj(y.transpose(1, 2).contiguous().view(B, T, C))

    def by_hand(self, q, k, v):
        T = q.size(-2)
        att = (q @ k.transpose(-2, -1)) / math.sqrt(self.hd)
        future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=q.device), diagonal=1)
        att = F.softmax(att.masked_fill(future, float("-inf")), dim=-1)
        return F.dropout(att, p=self.p_drop, training=self.training) @ v


class StoryGPT(nn.Module):
    def __init__(self, config: TinyConfig):
        super().__init__()
        self.config = config
        self.wte = nn.Embedding(config.vocab_size, config.n_embd)
        self.wpe = nn.Embedding(config.block_size, config.n_embd)
        self.blocks = nn.ModuleList([
            nn.ModuleDict({"ln1": nn.LayerNorm(config.n_embd), "attn": CausalAttention(config),
                           "ln2": nn.LayerNorm(config.n_embd),
                           "mlp": nn.Sequential(nn.Linear(config.n_embd, 4 * config.n_embd), nn.GELU(),
                                                nn.Linear(4 * config.n_embd, config.n_embd))})
            for _ in range(config.n_layer)
        ])
        self.ln_f = nn.LayerNorm(config.n_embd)
        self.lm_head = nn.Linear(config.n_embd, config.vocab_size, bias=False)
        self.lm_head.weight = self.wte.weight

    def forward(self, idx, targets=None):
        _, T = idx.shape
        if T > self.config.block_size:
            raise ValueError(f"{T} tokens > block_size={self.config.block_size}")
        x = self.wte(idx) + self.wpe(torch.arange(T, device=idx.device))
        for blk in self.blocks:
            x = x + blk["attn"](blk["ln1"](x))
            x = x + blk["mlp"](blk["ln2"](x))
        logits = self.lm_head(self.ln_f(x))
        loss = None if targets is None else F.cross_entropy(logits.reshape(-1, logits.size(-1)), targets.reshape(-1))
        return logits, loss
