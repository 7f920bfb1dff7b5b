# case: scale-mup-inverse-d
# modelled-on: microsoft/mup https://github.com/microsoft/mup/blob/main/README.md
# label: correct
# pattern: a muP transformer scales attention logits by attn_mult / d_head (1/d, not 1/sqrt(d)), as the muP README prescribes for hyperparameter transfer across widths
# why: 1/d attention is part of the Maximal Update Parametrization; with attn_mult = sqrt(d_head) at the base width it matches standard attention there
# looks-like: ATT004
import math

import torch
import torch.nn as nn
import torch.nn.functional as F
from mup import MuReadout


class MuPAttention(nn.Module):
    def __init__(self, d_model: int, n_head: int, attn_mult: float = 1.0, base_d_head: int = 64):
        super().__init__()
        self.n_head = n_head
        self.d_head = d_model // n_head
        # attn_mult is tuned at the base width; the 1/d (muP) scaling carries it to other widths
        self.attn_mult = attn_mult * math.sqrt(base_d_head)
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, x: torch.Tensor, causal: bool = True) -> torch.Tensor:
        B, T, C = x.shape
        q, k, v = self.qkv(x).split(C, dim=2)
        q = q.view(B, T, self.n_head, self.d_head).transpose(1, 2)
        k = k.view(B, T, self.n_head, self.d_head).transpose(1, 2)
        v = v.view(B, T, self.n_head, self.d_head).transpose(1, 2)
        att = (q @ k.transpose(-2, -1)) * (self.attn_mult / self.d_head)  # muP: 1/d
        if causal:
            future = torch.triu(torch.ones(T, T, dtype=torch.bool, device=x.device), diagonal=1)
            att = att.masked_fill(future, float("-inf"))
        y = F.softmax(att, dim=-1) @ v
        return self.out(y.transpose(1, 2).contiguous().view(B, T, C))


class MuPHead(nn.Module):
    def __init__(self, d_model: int, vocab: int):
        super().__init__()
        self.readout = MuReadout(d_model, vocab)

    def forward(self, h: torch.Tensor) -> torch.Tensor:
        return self.readout(h)
