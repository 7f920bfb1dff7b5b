# case: scale-trainllm-embedding-size
# modelled-on: FareedKhan-dev/train-llm-from-scratch https://github.com/FareedKhan-dev/train-llm-from-scratch/pull/3
# label: buggy
# pattern: a from-scratch GPT where each head receives n_embed and scales its scores by n_embed ** -0.5 although every head projects to head_size
# why: the scores of a head are sums over head_size products, so the divisor must be sqrt(head_size); PR #3 made that change
import torch
import torch.nn as nn
import torch.nn.functional as F


class Head(nn.Module):
    def __init__(self, head_size: int, n_embed: int, context_length: int):
        super().__init__()
        self.key = nn.Linear(n_embed, head_size, bias=False)
        self.query = nn.Linear(n_embed, head_size, bias=False)
        self.value = nn.Linear(n_embed, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(context_length, context_length)))
        self.n_embed = n_embed

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = q @ k.transpose(-2, -1) * self.n_embed ** -0.5  # expect: ATT004
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        return wei @ self.value(x)


class MultiHeadAttention(nn.Module):
    def __init__(self, n_head: int, n_embed: int, context_length: int):
        super().__init__()
        self.heads = nn.ModuleList([Head(n_embed // n_head, n_embed, context_length) for _ in range(n_head)])
        self.proj = nn.Linear(n_embed, n_embed)

    def forward(self, x):
        return self.proj(torch.cat([h(x) for h in self.heads], dim=-1))
