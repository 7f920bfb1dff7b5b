# case: b54-07-clean
# modelled-on: 2407adi/TinyGPT https://github.com/2407adi/TinyGPT/commit/785f0223d36f39c9e6106e83d06294cd39e6fb72
# label: correct
# class: clean
# pattern: a character-level GPT whose blocks each hold one causal attention head narrower than the model (a folder: the head, which projects d_model to d_head, keeps a (block_size, block_size) lower-triangular float buffer and fills the scores where the buffer == 0 with -inf after dividing by sqrt of the key width; the block, which projects d_head back to d_model; and the sampler, which crops the context to block_size before every step and applies top-k to the vocabulary logits by writing the k best into a tensor of -inf)
# why: correct: the head's keys have width d_head, so K.size(-1) is the size the scale must use, not d_model; the buffer is tril(ones) (1 = may attend), so filling == 0 blanks the future; the scores are (B, T, T) with keys last and softmaxed over dim=-1; the sampler crops the context to the buffer's size, so the [:T, :T] slice always exists; the -inf of the top-k filter acts on vocabulary logits, not on attention scores
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/2407adi/TinyGPT https://github.com/2407adi/TinyGPT/commit/785f0223d36f39c9e6106e83d06294cd39e6fb72 src/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class CausalHead(nn.Module):
    """One causal attention head: [B, T, d_model] -> [B, T, d_head]."""

    def __init__(self, d_model: int, d_head: int, block_size: int, dropout: float = 0.0):
        super().__init__()
        self.query = nn.Linear(d_model, d_head, bias=False)
        self.key = nn.Linear(d_model, d_head, bias=False)
        self.value = nn.Linear(d_model, d_head, bias=False)
        self.register_buffer("lower", torch.tril(torch.ones(block_size, block_size)))
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        _, t, _ = x.shape
        q, k, v = self.query(x), self.key(x), self.value(x)
        w = (q @ k.transpose(-2, -1)) / math.sqrt(k.size(-1))  # [B, T, T]
        w = w.masked_fill(self.lower[:t, :t] == 0, float("-inf"))
        w = self.drop(F.softmax(w, dim=-1))
        return w @ v
