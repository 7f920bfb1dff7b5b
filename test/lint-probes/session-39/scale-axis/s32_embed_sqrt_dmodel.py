import math
import torch
import torch.nn as nn


class Encoder(nn.Module):
    """The embedding is multiplied by sqrt(d_model) (Vaswani et al.); attention scales per head as usual."""

    def __init__(self, vocab, d_model=512, n_heads=8):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.emb = nn.Embedding(vocab, d_model)
        self.qkv = nn.Linear(d_model, 3 * d_model)

    def forward(self, tokens):
        x = self.emb(tokens) * math.sqrt(self.d_model)  # (B, T, d_model)
        B, T, _ = x.shape
        q, k, v = self.qkv(x).view(B, T, 3, self.n_heads, self.d_k).permute(2, 0, 3, 1, 4)
        a = torch.softmax(q @ k.transpose(-2, -1) / math.sqrt(self.d_k), dim=-1)
        return (a @ v).transpose(1, 2).reshape(B, T, self.d_model)
