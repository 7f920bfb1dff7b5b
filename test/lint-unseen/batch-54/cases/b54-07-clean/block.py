import torch
import torch.nn as nn

from one_head import CausalHead


class Block(nn.Module):
    """Pre-norm block: one narrow head, projected back to the model width, then an MLP."""

    def __init__(self, d_model: int, d_head: int, block_size: int, mult: int = 4, dropout: float = 0.0):
        super().__init__()
        self.ln1 = nn.LayerNorm(d_model)
        self.head = CausalHead(d_model, d_head, block_size, dropout)
        self.back = nn.Linear(d_head, d_model)
        self.ln2 = nn.LayerNorm(d_model)
        self.mlp = nn.Sequential(
            nn.Linear(d_model, mult * d_model), nn.GELU(), nn.Linear(mult * d_model, d_model), nn.Dropout(dropout)
        )
        self.drop = nn.Dropout(dropout)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.drop(self.back(self.head(self.ln1(x))))
        return x + self.mlp(self.ln2(x))


class CharGPT(nn.Module):
    def __init__(self, vocab: int, d_model: int = 128, d_head: int = 32, block_size: int = 64, n_layers: int = 4):
        super().__init__()
        self.block_size = block_size
        self.tok = nn.Embedding(vocab, d_model)
        self.pos = nn.Embedding(block_size, d_model)
        self.blocks = nn.Sequential(*[Block(d_model, d_head, block_size) for _ in range(n_layers)])
        self.ln_f = nn.LayerNorm(d_model)
        self.lm_head = nn.Linear(d_model, vocab, bias=False)
        self.lm_head.weight = self.tok.weight

    def forward(self, idx: torch.Tensor) -> torch.Tensor:
        t = idx.size(1)
        if t > self.block_size:
            raise ValueError("sequence longer than block_size")
        h = self.tok(idx) + self.pos(torch.arange(t, device=idx.device))[None]
        return self.lm_head(self.ln_f(self.blocks(h)))
