# case: b29-02-clean
# modelled-on: diixo/build-gpt-steps https://github.com/diixo/build-gpt-steps/commit/80d8ff61871040a3bead29184d443fb63627b125
# label: correct
# class: clean
# pattern: an early step of the same step-by-step character GPT: module-level n_embd = 32, one Head built as Head(n_embd) whose key/query/value are nn.Linear(n_embd, head_size), scores q @ k.transpose(-2, -1) * C**-0.5 with B, T, C = x.shape, a tril buffer whose zeros are filled with -inf, softmax over dim=-1, weights times values
# why: correct: the only Head in this step is built with head_size = n_embd, so the input width C equals the width of the queries and keys and C**-0.5 is 1/sqrt(d_k); the causal mask fills the entries where tril is 0 (future keys) with -inf before a softmax over the keys, and the key transpose swaps the last two axes
# looks-like: ATT002, ATT004
# source: https://github.com/diixo/build-gpt-steps https://github.com/diixo/build-gpt-steps/commit/80d8ff61871040a3bead29184d443fb63627b125 step_10_head.py
import torch
import torch.nn as nn
from torch.nn import functional as F

block_size = 8
n_embd = 32
vocab_size = 65


class Head(nn.Module):
    """one head of self-attention"""

    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(n_embd, head_size, bias=False)
        self.query = nn.Linear(n_embd, head_size, bias=False)
        self.value = nn.Linear(n_embd, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)
        q = self.query(x)
        wei = q @ k.transpose(-2, -1) * C**-0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        v = self.value(x)
        out = wei @ v
        return out


class BigramLanguageModel(nn.Module):
    def __init__(self):
        super().__init__()
        self.token_embedding_table = nn.Embedding(vocab_size, n_embd)
        self.position_embedding_table = nn.Embedding(block_size, n_embd)
        self.sa_head = Head(n_embd)
        self.lm_head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        tok_emb = self.token_embedding_table(idx)
        pos_emb = self.position_embedding_table(torch.arange(T, device=idx.device))
        x = tok_emb + pos_emb
        x = self.sa_head(x)
        logits = self.lm_head(x)
        if targets is None:
            return logits, None
        B, T, C = logits.shape
        loss = F.cross_entropy(logits.view(B * T, C), targets.view(B * T))
        return logits, loss
