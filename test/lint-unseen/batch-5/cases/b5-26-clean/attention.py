# case: b5-26-clean
# modelled-on: rplacucci/attention-is-all-you-need https://github.com/rplacucci/attention-is-all-you-need/commit/2542f1cfc3b134220766e91b96fb9d13a70ce0fb
# label: correct
# class: clean
# pattern: an encoder-decoder transformer whose masks are boolean "allow" masks built in a utility module (source: token != pad; target: padding & tril(ones), True = allow), asserted to be bool in the multi-head module and inverted with ~ in the scaled dot-product module before a -inf fill; the training loop in a third module wraps the forward pass in torch.autocast(bfloat16, enabled=False)
# why: correct: ~mask selects the padding and future keys of an allow mask, the scores are divided by sqrt(d_k) before the softmax over the keys, and autocast is disabled (and -inf is representable in any float type), so the fill cannot overflow
# looks-like: ATT002, ATT007
# source: https://github.com/rplacucci/attention-is-all-you-need https://github.com/rplacucci/attention-is-all-you-need/commit/2542f1cfc3b134220766e91b96fb9d13a70ce0fb src/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class Attention(nn.Module):
    def forward(self, query, key, value, mask=None, dropout=None):
        # [B, h, T_q, d_k] @ [B, h, d_k, T_k] -> [B, h, T_q, T_k]
        scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(query.size(-1))
        if mask is not None:
            scores = scores.masked_fill(~mask, float("-inf"))
        attn = F.softmax(scores, dim=-1)
        if dropout is not None:
            attn = dropout(attn)
        return torch.matmul(attn, value), attn


class MultiHeadAttention(nn.Module):
    def __init__(self, heads, embed, p_drop):
        super().__init__()
        self.heads = heads
        self.head_size = embed // heads
        self.lins = nn.ModuleList([nn.Linear(embed, embed) for _ in range(3)])
        self.proj = nn.Linear(embed, embed)
        self.attention = Attention()
        self.dropout = nn.Dropout(p_drop)

    def forward(self, query, key, value, mask=None):
        b = query.size(0)
        query, key, value = [
            lin(x).reshape(b, -1, self.heads, self.head_size).transpose(1, 2) for lin, x in zip(self.lins, (query, key, value))
        ]
        if mask is not None:
            assert mask.dtype == torch.bool, "boolean masks only (True = allow, False = block)"
        x, _ = self.attention(query, key, value, mask=mask, dropout=self.dropout)
        x = x.transpose(1, 2).contiguous().view(b, -1, self.heads * self.head_size)
        return self.proj(x)
