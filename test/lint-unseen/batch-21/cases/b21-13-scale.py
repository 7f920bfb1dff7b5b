# case: b21-13-scale
# modelled-on: josancamon19/self-attention-pytorch https://github.com/josancamon19/self-attention-pytorch/commit/2c605a8f3be41d93719eb1735dd5c1d60a0cab3e
# label: correct
# class: fixed
# pattern: the same from-scratch transformer one commit later ("transformer minor changes"): each SelfAttention head projects with (embedding_dim, head_size) parameter matrices, computes q @ k.transpose(1, 2) and now applies torch.softmax(attention_scores / math.sqrt(k.shape[-1]), dim=-1); heads are concatenated and multiplied by W_O; blocks add residuals
# why: correct: k.shape[-1] is head_size, the width the dot products run over, so the divisor is sqrt(d_k) of the paper; the softmax is over the key axis of (batch, seq, seq) scores and k.transpose(1, 2) is K^T for 3-D keys
# looks-like: ATT003, ATT004, ATT005
# source: https://github.com/josancamon19/self-attention-pytorch https://github.com/josancamon19/self-attention-pytorch/commit/2c605a8f3be41d93719eb1735dd5c1d60a0cab3e 05-cs336/01/cs336_basics/_transformer.py
import math

import torch
import torch.nn as nn
from torch.nn.parameter import Parameter


class SelfAttention(nn.Module):
    def __init__(self, embedding_dim, num_heads):
        super().__init__()
        head_size = embedding_dim // num_heads
        shape = (embedding_dim, head_size)
        self.Q = Parameter(torch.randn(shape) * 0.02)
        self.K = Parameter(torch.randn(shape) * 0.02)
        self.V = Parameter(torch.randn(shape) * 0.02)

    def forward(self, x):
        # batch, seq_length, embedding_dim
        q = x @ self.Q
        k = x @ self.K
        v = x @ self.V
        attention_scores = q @ k.transpose(1, 2)
        attention_weights = torch.softmax(attention_scores / math.sqrt(k.shape[-1]), dim=-1)
        return attention_weights @ v


class MultiHeadSelfAttention(nn.Module):
    def __init__(self, embedding_dim, num_heads):
        super().__init__()
        self.heads = nn.ModuleList([SelfAttention(embedding_dim, num_heads) for _ in range(num_heads)])
        self.W_O = Parameter(torch.randn((embedding_dim, embedding_dim)) * 0.02)

    def forward(self, x):
        return torch.cat([head(x) for head in self.heads], dim=-1) @ self.W_O


class TransformerBlock(nn.Module):
    def __init__(self, embedding_dim, num_heads):
        super().__init__()
        self.mhsa = MultiHeadSelfAttention(embedding_dim, num_heads)
        self.mlp = Parameter(torch.randn((embedding_dim, embedding_dim)) * 0.02)

    def forward(self, x):
        attended = self.mhsa(x) + x
        return attended @ self.mlp + x


class Transformer(nn.Module):
    def __init__(self, vocab_size, max_sequence_length, embedding_dim, num_layers, num_heads):
        super().__init__()
        self.embeddings = Parameter(torch.rand((vocab_size, embedding_dim)))
        self.pos = Parameter(torch.randn((max_sequence_length, embedding_dim)) * 0.02)
        self.blocks = nn.ModuleList([TransformerBlock(embedding_dim, num_heads) for _ in range(num_layers)])
        self.output = Parameter(torch.randn((embedding_dim, vocab_size)) * 0.02)

    def forward(self, input_ids):
        tokens = self.embeddings[input_ids] + self.pos[: input_ids.shape[1]]
        for block in self.blocks:
            tokens = block(tokens)
        return tokens @ self.output
