# case: transpose-openai-lm-split-heads-k
# modelled-on: huggingface/pytorch-openai-transformer-lm https://github.com/huggingface/pytorch-openai-transformer-lm/issues/2
# label: correct
# pattern: the GPT-1 port (blocks build Attention with scale=True): split_heads(k, k=True) permutes keys to (B, H, d, S) so _attn does matmul(q, k) with no transpose; the causal mask is TF-style w * b + -1e9 * (1 - b) with b the tril buffer
# why: the key transpose happens in split_heads (a reader in #2 missed it); multiplying by b alone would not mask, but the -1e9 * (1 - b) term does, in float32
# looks-like: ATT005, ATT006, ATT007
import math

import torch
import torch.nn as nn


class Attention(nn.Module):
    def __init__(self, nx: int, n_ctx: int, n_head: int, scale: bool = False):
        super().__init__()
        n_state = nx
        assert n_state % n_head == 0
        self.register_buffer("b", torch.tril(torch.ones(n_ctx, n_ctx)).view(1, 1, n_ctx, n_ctx))
        self.n_head = n_head
        self.split_size = n_state
        self.scale = scale
        self.c_attn = nn.Linear(nx, n_state * 3)
        self.c_proj = nn.Linear(n_state, nx)

    def _attn(self, q, k, v):
        w = torch.matmul(q, k)  # (B, H, T, T)
        if self.scale:
            w = w / math.sqrt(v.size(-1))
        b = self.b[:, :, : w.size(-2), : w.size(-1)]
        w = w * b + -1e9 * (1 - b)
        w = nn.Softmax(dim=-1)(w)
        return torch.matmul(w, v)

    def merge_heads(self, x):
        x = x.permute(0, 2, 1, 3).contiguous()
        return x.view(*x.size()[:-2], x.size(-2) * x.size(-1))

    def split_heads(self, x, k=False):
        x = x.view(*x.size()[:-1], self.n_head, x.size(-1) // self.n_head)
        if k:
            return x.permute(0, 2, 3, 1)  # (B, H, d, T)
        return x.permute(0, 2, 1, 3)  # (B, H, T, d)

    def forward(self, x):
        x = self.c_attn(x)
        query, key, value = x.split(self.split_size, dim=2)
        query = self.split_heads(query)
        key = self.split_heads(key, k=True)
        value = self.split_heads(value)
        a = self.merge_heads(self._attn(query, key, value))
        return self.c_proj(a)


class Block(nn.Module):
    def __init__(self, n_ctx: int, n_embd: int, n_head: int):
        super().__init__()
        self.attn = Attention(n_embd, n_ctx, n_head, scale=True)
        self.ln_1 = nn.LayerNorm(n_embd)

    def forward(self, x):
        return self.ln_1(x + self.attn(x))
