import torch
import torch.nn as nn

from head import Head


class BigramWithAttention(nn.Module):
    def __init__(self, vocab_size, n_embed=32, block_size=8):
        super().__init__()
        self.block_size = block_size
        self.tokens = nn.Embedding(vocab_size, n_embed)
        self.positions = nn.Embedding(block_size, n_embed)
        self.sa_head = Head(block_size, n_embed, n_embed)
        self.lm_head = nn.Linear(n_embed, vocab_size)

    def forward(self, idx, targets=None):
        B, T = idx.shape
        x = self.tokens(idx) + self.positions(torch.arange(T, device=idx.device))
        logits = self.lm_head(self.sa_head(x))
        if targets is None:
            return logits, None
        B, T, V = logits.shape
        loss = nn.functional.cross_entropy(logits.view(B * T, V), targets.view(B * T))
        return logits, loss

    @torch.no_grad()
    def generate(self, idx, steps):
        for _ in range(steps):
            logits, _ = self(idx[:, -self.block_size :])
            probs = nn.functional.softmax(logits[:, -1, :], dim=-1)
            idx = torch.cat((idx, torch.multinomial(probs, num_samples=1)), dim=-1)
        return idx
