# case: b7-13-scale
# modelled-on: FelipeMarra/vivit-pytorch https://github.com/FelipeMarra/vivit-pytorch/commit/eb14009c2a0c0996b9ceca8e956e42bb756b8a95
# label: correct
# class: fixed
# pattern: a ViViT re-implementation after the attention was vectorised: MultiHeadAtt projects (B, S, E) to E features, views them as (B, n_heads, S, head_size) and calls a module-level attention function that reads head_size from query.size(-1), scales by head_size ** -0.5 and normalises over the keys; the encoder block in another file builds the module with emb_dim and n_heads
# why: correct (after the fix commit "vectorized multihead self att"): query.size(-1) of (B, n_heads, S, head_size) is the per-head width, so the scores are scaled by 1/sqrt(head_size) as in the paper
# looks-like: ATT001, ATT003, ATT004, ATT005
# source: https://github.com/FelipeMarra/vivit-pytorch https://github.com/FelipeMarra/vivit-pytorch/commit/eb14009c2a0c0996b9ceca8e956e42bb756b8a95 src/vivit/att_blocks.py
from typing import Tuple

import torch
import torch.nn as nn
from torch.nn import functional as F


def attention(query: torch.Tensor, key: torch.Tensor, value: torch.Tensor, dropout: nn.Module) -> Tuple[torch.Tensor, torch.Tensor]:
    head_size = query.size(-1)
    att = query @ key.transpose(-2, -1)  # (B, n_heads, S, S)
    att = att * head_size**-0.5
    att = F.softmax(att, dim=-1)
    att = dropout(att)
    return att @ value, att  # (B, n_heads, S, head_size)


class MultiHeadAtt(nn.Module):
    def __init__(self, emb_dim, n_heads):
        super().__init__()
        assert emb_dim % n_heads == 0
        self.head_size = emb_dim // n_heads
        self.n_heads = n_heads
        self.wq = nn.Linear(emb_dim, emb_dim, bias=False)
        self.wk = nn.Linear(emb_dim, emb_dim, bias=False)
        self.wv = nn.Linear(emb_dim, emb_dim, bias=False)
        self.wo = nn.Linear(emb_dim, emb_dim, bias=False)
        self.dropout = nn.Dropout(0.1)

    def forward(self, x: torch.Tensor):
        B, S, E = x.shape
        query = self.wq(x).view(B, S, self.n_heads, self.head_size).transpose(1, 2)
        key = self.wk(x).view(B, S, self.n_heads, self.head_size).transpose(1, 2)
        value = self.wv(x).view(B, S, self.n_heads, self.head_size).transpose(1, 2)
        x, self.att = attention(query, key, value, self.dropout)
        x = x.transpose(1, 2).contiguous().view(B, S, E)
        return self.wo(x)
