import math

import torch
import torch.nn as nn

from pa2.head import Head


class MultiHeadAttention(nn.Module):
    def __init__(self, num_heads, head_size, d_model, causal=False, alibi=False):
        super().__init__()
        self.num_heads = num_heads
        self.heads = nn.ModuleList([Head(head_size, d_model, causal=causal, alibi=alibi) for _ in range(num_heads)])
        if alibi:
            ratio = 2 ** (-(2 ** (-math.log2(num_heads) + 3)))
            for i, head in enumerate(self.heads):
                head.slope = ratio ** (i + 1)
        self.proj = nn.Linear(head_size * num_heads, d_model)

    def forward(self, x):
        outputs, maps = [], []
        # each head works on its own chunk of the embedding
        for head, chunk in zip(self.heads, torch.chunk(x, self.num_heads, dim=-1)):
            out, attn = head(chunk)
            outputs.append(out)
            maps.append(attn)
        return self.proj(torch.cat(outputs, dim=-1)), maps


class Block(nn.Module):
    def __init__(self, n_embd, num_heads, causal=False, alibi=False):
        super().__init__()
        head_size = n_embd // num_heads
        self.sa = MultiHeadAttention(num_heads, head_size, n_embd, causal=causal, alibi=alibi)
        self.ff = nn.Sequential(nn.Linear(n_embd, 4 * n_embd), nn.ReLU(), nn.Linear(4 * n_embd, n_embd))
        self.ln1 = nn.LayerNorm(n_embd)
        self.ln2 = nn.LayerNorm(n_embd)

    def forward(self, x):
        a, maps = self.sa(self.ln1(x))
        x = x + a
        return x + self.ff(self.ln2(x)), maps
