# case: b6-15-scale
# modelled-on: atkinssamuel/gpt-from-scratch https://github.com/atkinssamuel/gpt-from-scratch/commit/ccc011c093af126a5265e0e49693ade55421d23b
# label: buggy
# class: real-bug
# pattern: a character-level GPT after the nanoGPT lecture, one module per head: Head(n_embd, head_size) projects to head_size, reads B, T, C = X.shape from its input and scales q @ k^T by C ** -0.5, then a tril buffer masked_fill(== 0, -inf) and softmax; MultiHeadAttention concatenates n_heads heads, and the block in the same file builds them with head_size = n_embd // n_heads
# why: buggy: C is the width of the block's input (n_embd), not the width of the queries and keys (head_size), so the scores are divided by sqrt(n_embd) instead of sqrt(head_size), sqrt(n_heads) times too much, which flattens every head's softmax; the paper scales by sqrt(d_k) and the lecture code this follows was later fixed on the same line to scale by the head size (k.shape[-1] ** -0.5); no fix was found in this repository
# source: https://github.com/atkinssamuel/gpt-from-scratch https://github.com/atkinssamuel/gpt-from-scratch/commit/ccc011c093af126a5265e0e49693ade55421d23b src/llm.py
import torch
import torch.nn as nn
from torch.nn import functional as F


class Head(nn.Module):
    def __init__(self, n_embd: int, head_size: int, block_size: int, dropout: float = 0.2) -> None:
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))
        self.dropout = nn.Dropout(dropout)

    def forward(self, X: torch.Tensor):
        B, T, C = X.shape
        k = self.key(X)  # (B, T, head_size)
        q = self.query(X)
        v = self.value(X)
        weights = q @ k.transpose(-2, -1) * C**-0.5  # expect: ATT004
        weights = weights.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        weights = F.softmax(weights, dim=-1)
        weights = self.dropout(weights)  # (B, T, T)
        return weights @ v  # (B, T, head_size)


class MultiHeadAttention(nn.Module):
    def __init__(self, n_embd: int, head_size: int, block_size: int, n_heads: int, dropout: float = 0.2) -> None:
        super().__init__()
        self.heads = nn.ModuleList([Head(n_embd, head_size, block_size) for _ in range(n_heads)])
        self.proj = nn.Linear(n_embd, n_embd)
        self.dropout = nn.Dropout(dropout)

    def forward(self, X: torch.Tensor):
        out = torch.cat([h(X) for h in self.heads], dim=-1)
        return self.dropout(self.proj(out))


class Block(nn.Module):
    def __init__(self, n_embd: int, block_size: int, n_heads: int) -> None:
        super().__init__()
        head_size = n_embd // n_heads
        if head_size * n_heads != n_embd:
            raise ValueError(f"no head_size supports n_embd = {n_embd} and n_heads = {n_heads}")
        self.mha = MultiHeadAttention(n_embd, head_size, block_size, n_heads)
        self.ffwd = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd))
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)

    def forward(self, X: torch.Tensor):
        X = X + self.mha(self.ln1(X))
        return X + self.ffwd(self.ln2(X))
