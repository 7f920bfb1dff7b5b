# case: b29-01-scale
# modelled-on: diixo/build-gpt-steps https://github.com/diixo/build-gpt-steps/commit/6fd395da7ba89ee0b0c1322ab69e338885a1bc8a
# label: buggy
# class: real-bug
# pattern: a step-by-step character GPT (the last step of a lecture walk-through): module-level n_embd = 64 and n_head = 4, a Head whose key/query/value are nn.Linear(n_embd, head_size) with head_size = n_embd // n_head, scores q @ k.transpose(-2, -1) * C**-0.5 with B, T, C = x.shape, a tril causal mask filled with -inf, softmax over dim=-1; MultiHeadAttention concatenates the heads and projects
# why: buggy: C is the width of the input x (n_embd = 64), not of the per-head queries and keys (head_size = 16) that the product sums over, so the logits are scaled by 1/8 instead of 1/4 (sqrt(n_head) too small); the right factor is head_size ** -0.5 (k.shape[-1] ** -0.5). The mask polarity (tril == 0 filled with -inf), the softmax axis and the key transpose are right. No fixed version exists in the repository
# source: https://github.com/diixo/build-gpt-steps https://github.com/diixo/build-gpt-steps/commit/6fd395da7ba89ee0b0c1322ab69e338885a1bc8a step_16_scaled.py
import torch
import torch.nn as nn
from torch.nn import functional as F

block_size = 8
n_embd = 64
n_head = 4
n_layer = 4
dropout = 0.2
vocab_size = 65


class Head(nn.Module):
    """one head of self-attention"""

    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))
        self.dropout = nn.Dropout(dropout)

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = q @ k.transpose(-2, -1) * C**-0.5  # expect: ATT004
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
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
        self.ffwd = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd), nn.Dropout(dropout))
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)

    def forward(self, x):
        x = x + self.sa(self.ln1(x))
        x = x + self.ffwd(self.ln2(x))
        return x


class LanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.blocks = nn.Sequential(*[Block(n_embd, n_head=n_head) for _ in range(n_layer)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        B, T = idx.shape
        x = self.token_embedding_table(idx) + self.position_embedding_table(torch.arange(T, device=idx.device))
        x = self.ln_f(self.blocks(x))
        return self.lm_head(x)
