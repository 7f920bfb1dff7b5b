# case: b21-12-scale
# modelled-on: josancamon19/self-attention-pytorch https://github.com/josancamon19/self-attention-pytorch/commit/43a064125b2c2dcd65305dac8c4502e7d5c7550d
# label: buggy
# class: real-bug
# pattern: a from-scratch transformer for a course assignment (only nn.Parameter and containers allowed): each SelfAttention head owns (embedding_dim, head_size) Q/K/V parameter matrices with head_size = embedding_dim // num_heads, computes q @ k.transpose(1, 2) and applies torch.softmax(attention_scores / x.shape[-1], dim=-1); the multi-head module concatenates the heads and multiplies by W_O; blocks add residuals around the attention and an MLP
# why: buggy: the scores are dot products over head_size features, and scaled dot-product attention divides them by sqrt(head_size); x.shape[-1] is the model width (embedding_dim, 128 in the file) and is not square-rooted, so the logits are shrunk by 128 instead of sqrt(16) = 4 and every softmax is nearly uniform; the author's next commit replaces the divisor with math.sqrt(k.shape[-1]) (the fixed case)
# source: https://github.com/josancamon19/self-attention-pytorch https://github.com/josancamon19/self-attention-pytorch/commit/43a064125b2c2dcd65305dac8c4502e7d5c7550d 05-cs336/01/cs336_basics/_transformer.py
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
        attention_weights = torch.softmax(attention_scores / x.shape[-1], dim=-1)  # expect: ATT004
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
