import torch
import torch.nn as nn
import torch.nn.functional as F

from attention import CausalAttention


class Block(nn.Module):
    def __init__(self, hidden: int, n_heads: int):
        super().__init__()
        self.n1 = nn.RMSNorm(hidden)
        self.attn = CausalAttention(hidden, n_heads)
        self.n2 = nn.RMSNorm(hidden)
        self.ff = nn.Sequential(nn.Linear(hidden, 4 * hidden), nn.SiLU(), nn.Linear(4 * hidden, hidden))

    def forward(self, x, pad_bias=None):
        a, w = self.attn(self.n1(x), pad_bias)
        x = x + a
        return x + self.ff(self.n2(x)), w


class MiniLlama(nn.Module):
    def __init__(self, vocab: int, hidden: int = 512, n_heads: int = 8, n_layers: int = 6):
        super().__init__()
        self.embed = nn.Embedding(vocab, hidden)
        self.blocks = nn.ModuleList([Block(hidden, n_heads) for _ in range(n_layers)])
        self.norm = nn.RMSNorm(hidden)
        self.lm_head = nn.Linear(hidden, vocab, bias=False)

    def forward(self, ids, pad_bias=None):
        x = self.embed(ids)
        for blk in self.blocks:
            x, _ = blk(x, pad_bias)
        return self.lm_head(self.norm(x))


def train_epoch(model: MiniLlama, loader, optimizer, device="cuda"):
    """Next-token prediction: position t is trained to predict token t + 1."""
    model.train()
    for batch in loader:
        ids = batch["input_ids"].to(device)
        logits = model(ids[:, :-1])
        loss = F.cross_entropy(logits.reshape(-1, logits.size(-1)), ids[:, 1:].reshape(-1))
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
