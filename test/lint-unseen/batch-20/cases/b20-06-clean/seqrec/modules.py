# case: b20-06-clean
# modelled-on: hy1107/SASRec https://github.com/hy1107/SASRec/commit/1d1373a305b1a35cd652fc4388af5396e2ae0e0b
# label: correct
# class: clean
# pattern: a SASRec re-implementation with hand-written pre-LN attention: histories are left-padded with item 0 (dataset.py); the attention fills the strict upper triangle (triu(ones(L, L, bool), diagonal=1)) and the padding keys (token_ids == 0, unsqueezed to (B, 1, 1, L)) with -inf, then finds the rows that are now entirely -inf (scores.isinf().all(dim=-1, keepdim=True)) and sets them to 0.0 before a dim=-1 softmax
# why: correct: both fills hide the right positions (True = hidden); with left padding, the leading padded query rows see only padding keys and would be all -inf, which is exactly what the all-masked guard rewrites to a constant row (uniform weights, no NaN); those positions are padding and carry no loss; the scale is sqrt(head_dim)
# looks-like: ATT002, ATT007
# source: https://github.com/hy1107/SASRec https://github.com/hy1107/SASRec/commit/1d1373a305b1a35cd652fc4388af5396e2ae0e0b sasrec/model/modules.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalSelfAttention(nn.Module):
    def __init__(self, hidden_units: int, num_heads: int, dropout_rate: float) -> None:
        super().__init__()
        assert hidden_units % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = hidden_units // num_heads
        self.q_proj = nn.Linear(hidden_units, hidden_units, bias=False)
        self.k_proj = nn.Linear(hidden_units, hidden_units, bias=False)
        self.v_proj = nn.Linear(hidden_units, hidden_units, bias=False)
        self.out_proj = nn.Linear(hidden_units, hidden_units, bias=False)
        self.norm = nn.LayerNorm(hidden_units)
        self.dropout = nn.Dropout(dropout_rate)

    def forward(self, x: torch.Tensor, token_ids: torch.Tensor) -> torch.Tensor:
        # x: [B, L, D]; token_ids: [B, L], 0 = padding
        residual = x
        x = self.norm(x)
        B, L, D = x.shape
        q = self.q_proj(x).view(B, L, self.num_heads, self.head_dim).transpose(1, 2)
        k = self.k_proj(x).view(B, L, self.num_heads, self.head_dim).transpose(1, 2)
        v = self.v_proj(x).view(B, L, self.num_heads, self.head_dim).transpose(1, 2)

        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)

        future = torch.triu(torch.ones(L, L, device=x.device, dtype=torch.bool), diagonal=1)
        scores = scores.masked_fill(future.unsqueeze(0).unsqueeze(0), float("-inf"))

        pad = token_ids == 0  # [B, L], True = padding
        scores = scores.masked_fill(pad.unsqueeze(1).unsqueeze(2), float("-inf"))

        # rows with every key hidden (leading padding) would give NaN: make them constant
        dead_rows = scores.isinf().all(dim=-1, keepdim=True)
        scores = scores.masked_fill(dead_rows, 0.0)

        attn = self.dropout(F.softmax(scores, dim=-1))
        out = torch.matmul(attn, v).transpose(1, 2).contiguous().view(B, L, D)
        return residual + self.out_proj(out)
