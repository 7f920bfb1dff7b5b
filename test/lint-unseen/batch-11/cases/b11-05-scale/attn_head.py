# case: b11-05-scale
# modelled-on: sebastianvlad1/Transformer https://github.com/sebastianvlad1/Transformer/commit/09bfacadc48b791b38b522886d22437ee874c303
# label: buggy
# class: real-bug
# pattern: a character-level language model built step by step after a video lecture: one causal self-attention head class taking the embedding width and a separate head size, projecting (B, T, C) inputs to head_size keys and queries, scaling q @ k.transpose(-2, -1) by C**-0.5 with C unpacked from the input's shape, masking with a tril buffer and softmaxing over the last axis; the script builds the head with a head size of half the embedding width
# why: buggy: scaled attention divides by the square root of the key width, which is head_size here; C is the embedding width of the input (32 against a head size of 16 in the script), so the scores are scaled by 32**-0.5 instead of 16**-0.5; the lecture's author accepted exactly this fix (scale by the head size) in the lecture's repository; no fix in this repository
# source: https://github.com/sebastianvlad1/Transformer https://github.com/sebastianvlad1/Transformer/commit/09bfacadc48b791b38b522886d22437ee874c303 head.py
import torch
import torch.nn as nn
from torch.nn import functional as F


class CausalHead(nn.Module):
    def __init__(self, n_embd, head_size, block_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)  # (B, T, head_size)
        q = self.query(x)  # (B, T, head_size)
        wei = q @ k.transpose(-2, -1) * C**-0.5  # expect: ATT004
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        v = self.value(x)
        return wei @ v  # (B, T, head_size)
