# case: b5-17-scale
# modelled-on: bobbycxy/gpt-from-scratch https://github.com/bobbycxy/gpt-from-scratch/commit/0c819987002fec9b0d4b50792e64b5e2fd56d00a
# label: buggy
# class: real-bug
# pattern: a nanoGPT-lecture style model with one module per attention head (head_size = n_embed // num_heads) and a config switch between causal and bidirectional attention: the head keeps a triu(ones, 1) buffer (or an all-zero one when not causal), adds a padding mask built from the token ids, fills with -inf where True, and scales the scores by C ** -0.5 with B, T, C = x.shape; the heads are built and concatenated by a multi-head module in another file
# why: C is the embedding width of the input x, not the head size of Q and K, so the scores are divided by sqrt(n_embed) instead of sqrt(head_size), num_heads ** 0.5 times too much (the scaled dot product of the paper uses d_k, the key width); no fix was found in this repository, the label rests on the paper's formula and on the same line's fix in the lecture code it follows (scale by the head size)
# source: https://github.com/bobbycxy/gpt-from-scratch https://github.com/bobbycxy/gpt-from-scratch/commit/0c819987002fec9b0d4b50792e64b5e2fd56d00a model/layers/attention.py
import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    def __init__(self, head_size, n_embed, block_size, is_causal):
        super().__init__()
        self.head_size = head_size
        self.q = nn.Linear(n_embed, head_size)
        self.k = nn.Linear(n_embed, head_size)
        self.v = nn.Linear(n_embed, head_size)
        if is_causal:
            # True above the diagonal: the future is hidden
            self.register_buffer("triu", torch.triu(torch.ones(block_size, block_size), diagonal=1))
        else:
            # nothing hidden: bidirectional attention
            self.register_buffer("triu", torch.triu(torch.zeros(block_size, block_size), diagonal=1))
        self.dropout = nn.Dropout()

    def forward(self, x, pad=None):
        B, T, C = x.shape
        Q = self.q(x)  # (B, T, head_size)
        K = self.k(x)
        V = self.v(x)
        hidden = self.triu[:T, :T].unsqueeze(0) == 1
        if pad is not None:
            # pad: (B, T) token mask, 0 at padding -> hide those keys
            hidden = hidden | (pad == 0).unsqueeze(1)
        att = Q @ K.transpose(-2, -1) * (C ** -0.5)  # expect: ATT004
        att = att.masked_fill(hidden, float("-inf"))
        att = F.softmax(att, dim=-1)
        att = self.dropout(att)
        return att @ V
