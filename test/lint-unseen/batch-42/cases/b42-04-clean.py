# case: b42-04-clean
# modelled-on: AAce3/dryad-training https://github.com/AAce3/dryad-training/commit/53c2f0053c1ff447c0ca6a93f705df3661508c2a
# label: correct
# class: clean
# pattern: chess-board transformer (64 square tokens): multi-head self-attention with Shaw-style relative position terms: a learned table of 15 x 15 (rank distance, file distance) vectors is expanded to (64, 64, dim); query-side and key-side relative logits (the key side computed from the keys and transposed back to (query, key)) and a learned per-head (64, 64) bias are added to q.k^T, the sum is divided by sqrt(head_dim), softmaxed over the last axis, and the output adds a relative-position term for the values; no mask
# why: correct: every position is a square of the board and every square may attend to every other, so there is nothing to mask; dividing the summed logits by sqrt(head_dim) scales the content and relative terms alike, as in relative-position attention; the key-side relative logits are computed per key row and transposed so that they are indexed (query, key) like q.k^T; the softmax runs over the keys
# looks-like: ATT001, ATT002, ATT003, ATT004, ATT005
# source: https://github.com/AAce3/dryad-training https://github.com/AAce3/dryad-training/commit/53c2f0053c1ff447c0ca6a93f705df3661508c2a training/attention.py
import math

import torch
import torch.nn as nn

SQUARES = 64


class SquareDistances(nn.Module):
    """One learned vector per (rank distance, file distance) pair, laid out for all 64 x 64 square pairs."""

    def __init__(self, dim):
        super().__init__()
        self.table = nn.Parameter(torch.zeros(15, 15, dim))
        line = torch.arange(8)
        d = (line[None, :] - line[:, None]) + 7
        self.register_buffer("rank_idx", d.repeat_interleave(8, 0).repeat_interleave(8, 1))
        self.register_buffer("file_idx", d.repeat(8, 8))

    def forward(self):
        return self.table[self.rank_idx, self.file_idx]  # (64, 64, dim)


class BoardAttention(nn.Module):
    def __init__(self, dim, heads):
        super().__init__()
        assert dim % heads == 0
        self.dim, self.heads, self.hd = dim, heads, dim // heads
        self.rel_qk = SquareDistances(dim)
        self.rel_v = SquareDistances(dim)
        self.to_q = nn.Linear(dim, dim)
        self.to_k = nn.Linear(dim, dim)
        self.to_v = nn.Linear(dim, dim)
        self.proj = nn.Linear(dim, dim)
        self.pair_bias = nn.Parameter(torch.zeros(heads, SQUARES, SQUARES))

    def split(self, t):
        return t.view(t.shape[0], SQUARES, self.heads, self.hd).transpose(1, 2)

    def rel_logits(self, x, table):
        # x: (b, h, 64, hd); table: (64, 64, dim) -> (b, h, 64, 64)
        emb = table.view(SQUARES, SQUARES, self.heads, self.hd).permute(2, 0, 3, 1)
        return torch.matmul(x.unsqueeze(3), emb).squeeze(3)

    def rel_values(self, weights, table):
        emb = table.view(SQUARES, SQUARES, self.heads, self.hd).permute(2, 0, 1, 3)
        return torch.matmul(weights.unsqueeze(3), emb).squeeze(3)

    def forward(self, board):
        b = board.shape[0]
        q, k, v = self.split(self.to_q(board)), self.split(self.to_k(board)), self.split(self.to_v(board))
        table = self.rel_qk()
        content = q @ k.transpose(-2, -1)
        from_q = self.rel_logits(q, table)
        from_k = self.rel_logits(k, table.transpose(0, 1)).transpose(2, 3)
        logits = (content + from_q + from_k + self.pair_bias) / math.sqrt(self.hd)
        weights = torch.softmax(logits, dim=-1)
        mixed = weights @ v + self.rel_values(weights, self.rel_v())
        return self.proj(mixed.transpose(1, 2).reshape(b, SQUARES, self.dim))
