import torch
import torch.nn as nn

from src.llm import Block

PARAMS = {"n_embd": 384, "n_heads": 6, "block_size": 256, "n_layers": 6}


class LanguageModel(nn.Module):
    def __init__(self, vocab_size, n_embd, n_heads, block_size, n_layers):
        super().__init__()
        self.tok = nn.Embedding(vocab_size, n_embd)
        self.pos = nn.Embedding(block_size, n_embd)
        self.blocks = nn.Sequential(*[Block(n_embd, block_size, n_heads) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(n_embd)
        self.head = nn.Linear(n_embd, vocab_size)

    def forward(self, idx):
        B, T = idx.shape
        x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        return self.head(self.ln_f(self.blocks(x)))


def build(vocab_size):
    return LanguageModel(vocab_size, **PARAMS)
