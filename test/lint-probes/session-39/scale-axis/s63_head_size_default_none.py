import torch
import torch.nn as nn


class Head(nn.Module):
    """head_size defaults to the embedding width (one head); the block passes nothing else."""

    def __init__(self, n_embd, block_size, head_size=None):
        super().__init__()
        head_size = head_size or n_embd
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k, q = self.key(x), self.query(x)
        wei = q @ k.transpose(-2, -1) * C ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = wei.softmax(dim=-1)
        return wei @ self.value(x)


class Block(nn.Module):
    def __init__(self, n_embd, block_size):
        super().__init__()
        self.sa = Head(n_embd, block_size)
        self.ln = nn.LayerNorm(n_embd)

    def forward(self, x):
        return x + self.sa(self.ln(x))
