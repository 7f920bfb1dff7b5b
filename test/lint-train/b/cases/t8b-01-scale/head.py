# case: t8b-01-scale
# modelled-on: ryansenn/byteGPT https://github.com/ryansenn/byteGPT/commit/0067ce3086384248563c766b076214cd11027fd5
# label: buggy
# class: real-bug
# pattern: a character-level GPT built up step by step: a single causal self-attention head (key/query/value Linear(n_embd, head_size), a tril buffer) in its own module, driven by a bigram language model in another file that embeds tokens and positions and calls the head
# why: buggy: the head computes q @ k^T and goes straight to masked_fill and the softmax with no 1/sqrt(d) factor; the commit that plugs the head into the model (692a5d9) adds `* C**-0.5` to the same line (the head width equals the embedding width there), the lecture's scaled attention the project follows
# source: https://github.com/ryansenn/byteGPT https://github.com/ryansenn/byteGPT/commit/692a5d911d94b404aa6f039fc51e7865dd82a22f self_attention.py
import torch
import torch.nn as nn


class Head(nn.Module):
    """One head of causal self-attention."""

    def __init__(self, block_size, n_embd, head_size):
        super().__init__()
        self.head_size = head_size
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape

        q = self.query(x)  # B, T, head_size
        k = self.key(x)  # B, T, head_size

        wei = q @ k.transpose(-2, -1)
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = nn.functional.softmax(wei, dim=-1)  # expect: ATT003

        v = self.value(x)
        return wei @ v
