import torch
import torch.nn as nn

from head import Head


class MultiHead(nn.Module):
    def __init__(self, num_heads, n_embed, block_size, is_causal):
        super().__init__()
        head_size = n_embed // num_heads
        self.heads = nn.ModuleList([Head(head_size, n_embed, block_size, is_causal) for _ in range(num_heads)])
        self.proj = nn.Linear(n_embed, n_embed)

    def forward(self, x, pad=None):
        return self.proj(torch.cat([h(x, pad) for h in self.heads], dim=-1))


class LanguageModel(nn.Module):
    def __init__(self, cfg):
        super().__init__()
        lm = cfg["languagemodel"]
        self.tok = nn.Embedding(lm["vocab_size"], lm["n_embed"])
        self.pos = nn.Embedding(lm["block_size"], lm["n_embed"])
        self.attn = nn.ModuleList(
            [MultiHead(lm["num_heads"], lm["n_embed"], lm["block_size"], lm["is_causal"]) for _ in range(lm["num_layers"])]
        )
        self.head = nn.Linear(lm["n_embed"], lm["vocab_size"])

    def forward(self, idx, pad=None):
        T = idx.shape[1]
        x = self.tok(idx) + self.pos(torch.arange(T, device=idx.device))
        for block in self.attn:
            x = x + block(x, pad)
        return self.head(x)
