# case: t10d-03-clean
# modelled-on: glouppe/info8010-deep-learning https://github.com/glouppe/info8010-deep-learning/commit/adaa127eb837e31e25a210ea01154036836758a2
# label: correct
# class: clean
# pattern: a course's step-by-step GPT (the version with one self-attention head): module-level hyperparameters, a Head class taking head_size whose scores are q @ k.transpose(-1, -2) * C**-0.5 with C unpacked from the input (B, T, C), a tril buffer mask, softmax over the last axis; the model builds its only head as Head(n_embedding), and generation softmaxes (B, V) logits over dim=1
# why: correct: the model's single head is n_embedding wide, so the key width equals C and C**-0.5 is the key-width scale; the course's next version, which splits the width into several heads, switches to the head's own width (k.shape[-1]) at the same time; the transpose(-1, -2) swaps the last two axes of the 3-D keys; what a naive linter could misread: ATT004 (a scale read from the input's width rather than the key's), ATT001 (softmax over dim=1 in generation)
# looks-like: ATT001, ATT004
# source: https://github.com/glouppe/info8010-deep-learning https://github.com/glouppe/info8010-deep-learning/commit/adaa127eb837e31e25a210ea01154036836758a2 code/gpt/gpt-v3.py
import torch
import torch.nn as nn
from torch.nn import functional as F

device = "cuda" if torch.cuda.is_available() else "cpu"

batch_size = 32
block_size = 8
n_embedding = 32
vocab_size = 65


class Head(nn.Module):
    def __init__(self, head_size):
        super().__init__()
        self.key = nn.Linear(n_embedding, head_size, bias=False)
        self.query = nn.Linear(n_embedding, head_size, bias=False)
        self.value = nn.Linear(n_embedding, head_size, bias=False)
        self.register_buffer("tril", torch.tril(torch.ones(block_size, block_size)))

    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x)  # (B, T, H)
        q = self.query(x)  # (B, T, H)
        wei = q @ k.transpose(-1, -2) * C**-0.5  # (B, T, T)
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float("-inf"))
        wei = F.softmax(wei, dim=-1)
        v = self.value(x)
        return wei @ v  # (B, T, H)


class TinyGPT(nn.Module):
    def __init__(self):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, n_embedding)
        self.pos = nn.Embedding(block_size, n_embedding)
        self.sa_head = Head(n_embedding)
        self.lm_head = nn.Linear(n_embedding, vocab_size)

    def forward(self, idx):
        B, T = idx.shape
        h = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        return self.lm_head(self.sa_head(h))  # (B, T, V)

    def loss(self, idx, targets):
        logits = self(idx)
        B, T, V = logits.shape
        return F.cross_entropy(logits.view(B * T, V), targets.view(B * T))

    @torch.no_grad()
    def generate(self, idx, max_new_tokens):
        for _ in range(max_new_tokens):
            logits = self(idx[:, -block_size:])[:, -1, :]  # (B, V)
            probs = F.softmax(logits, dim=1)
            idx = torch.cat([idx, torch.multinomial(probs, num_samples=1)], dim=1)
        return idx
