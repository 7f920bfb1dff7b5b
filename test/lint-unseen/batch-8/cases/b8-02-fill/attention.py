# case: b8-02-fill
# modelled-on: Linvana098/Mini-Llama-from-Scratch https://github.com/Linvana098/Mini-Llama-from-Scratch/commit/e88593b7830ce2c2f6fdc0edf169c3a1fc8b0bb0
# label: buggy
# class: real-bug
# pattern: a Llama-style decoder's attention builds its causal mask as a boolean tril and converts it in place to an additive mask with two chained masked_fill calls (-inf where False, 0.0 where True), then adds it to the scores; the language-model training loop in another module calls the model on token ids only
# why: buggy: masked_fill keeps the tensor's dtype, so -inf written into a bool tensor becomes True and the second fill turns every entry into False; the "additive" mask is all zeros and no future position is masked, although the docstring and comments state that the upper triangle must be -inf so each token only sees earlier ones. No fix was found; the label rests on the code's own comments and torch's documented masked_fill (the result has self's dtype)
# source: https://github.com/Linvana098/Mini-Llama-from-Scratch https://github.com/Linvana098/Mini-Llama-from-Scratch/commit/e88593b7830ce2c2f6fdc0edf169c3a1fc8b0bb0 src/model/multi_head_attention.py
from typing import Optional

import torch
import torch.nn as nn
import torch.nn.functional as F


class Rotary(nn.Module):
    def __init__(self, head_dim: int, max_len: int = 4096):
        super().__init__()
        inv = 1.0 / (10000 ** (torch.arange(0, head_dim, 2).float() / head_dim))
        ang = torch.outer(torch.arange(max_len).float(), inv)
        self.register_buffer("cos", torch.cat([ang, ang], -1).cos(), persistent=False)
        self.register_buffer("sin", torch.cat([ang, ang], -1).sin(), persistent=False)

    def forward(self, x):
        T = x.size(-2)
        a, b = x.chunk(2, dim=-1)
        return x * self.cos[:T] + torch.cat([-b, a], -1) * self.sin[:T]


class CausalAttention(nn.Module):
    def __init__(self, hidden: int, n_heads: int, dropout: float = 0.1):
        super().__init__()
        self.n_heads = n_heads
        self.head_dim = hidden // n_heads
        self.wq = nn.Linear(hidden, hidden, bias=False)
        self.wk = nn.Linear(hidden, hidden, bias=False)
        self.wv = nn.Linear(hidden, hidden, bias=False)
        self.wo = nn.Linear(hidden, hidden, bias=False)
        self.rope = Rotary(self.head_dim)
        self.drop = nn.Dropout(dropout)
        self.register_buffer("sqrt_dk", torch.sqrt(torch.tensor(self.head_dim, dtype=torch.float32)))

    def causal_bias(self, T: int, device) -> torch.Tensor:
        """Additive causal mask (1, 1, T, T): 0 on and below the diagonal, -inf above it."""
        visible = torch.tril(torch.ones((T, T), device=device, dtype=torch.bool))  # True = visible
        # False -> -inf, True -> 0
        bias = visible.masked_fill(visible == False, float("-inf")).masked_fill(visible == True, 0.0)  # expect: ATT007
        return bias.unsqueeze(0).unsqueeze(0)

    def forward(self, x: torch.Tensor, pad_bias: Optional[torch.Tensor] = None):
        B, T, _ = x.shape
        q = self.wq(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        k = self.wk(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        v = self.wv(x).view(B, T, self.n_heads, self.head_dim).transpose(1, 2)
        q, k = self.rope(q), self.rope(k)

        scores = q @ k.transpose(-2, -1) / self.sqrt_dk
        scores += self.causal_bias(T, x.device)
        if pad_bias is not None:
            scores += pad_bias.unsqueeze(1).unsqueeze(2)
        weights = self.drop(F.softmax(scores, dim=-1))
        out = (weights @ v).transpose(1, 2).contiguous().view(B, T, -1)
        return self.wo(out), weights
