# case: scale-solvingmlpapers-head-embd-width
# modelled-on: cneuralnetwork/solving-ml-papers https://github.com/cneuralnetwork/solving-ml-papers/issues/1
# label: buggy
# class: real-bug
# pattern: character-level GPT script with module-level hyperparameters (n_embd = 64, n_head = 4); each Head projects to head_size = n_embd // n_head and unpacks B, T, C = x.shape from the block input before scaling its scores; heads are run in a ModuleList and concatenated
# why: C is the embedding width n_embd of the input x, not the head size the dot products run over, so the scores are scaled by 1/sqrt(64) instead of 1/sqrt(16); the issue points out that the paper scales by sqrt(d_k) and that the code is only right when the two sizes coincide
# source: https://github.com/cneuralnetwork/solving-ml-papers https://github.com/cneuralnetwork/solving-ml-papers/commit/7f0f0f3411ca101b125053313999f27ec75948b1 Attention is all you need/transformer(attn paper).py
import torch
import torch.nn as nn
from torch.nn import functional as F

batch_size = 16
block_size = 32
n_embd = 64
n_head = 4
n_layer = 4
dropout = 0.0


class Head(nn.Module):
    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer('tril', torch.tril(torch.ones(block_size, block_size)))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = q @ k.transpose(-2, -1) * C**-0.5  # expect: ATT004
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float('-inf'))
        wei = F.softmax(wei, dim=-1)
        wei = self.dropout(wei)
        v = self.value(x)
        return wei @ v


class MultiHeadAttention(nn.Module):
    def __init__(self, num_heads, head_size):
        super().__init__()
        self.heads = nn.ModuleList([Head(head_size) for _ in range(num_heads)])
        self.proj = nn.Linear(n_embd, n_embd)
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        out = torch.cat([h(x) for h in self.heads], dim=-1)
        return self.dropout(self.proj(out))


class Block(nn.Module):
    def __init__(self, n_embd, n_head):
        super().__init__()
        head_size = n_embd // n_head
        self.sa = MultiHeadAttention(n_head, head_size)
        self.ln1 = nn.LayerNorm(n_embd)

    def forward(self, x):
        return x + self.sa(self.ln1(x))
