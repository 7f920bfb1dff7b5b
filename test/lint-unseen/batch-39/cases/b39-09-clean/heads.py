import torch
import torch.nn as nn

from core_attention import MaskedDotProduct


class CausalHeads(nn.Module):
    def __init__(self, n_embd: int, n_head: int, block_size: int, dropout: float = 0.1):
        super().__init__()
        assert n_embd % n_head == 0
        self.n_embd, self.n_head = n_embd, n_head
        self.head_dim = n_embd // n_head
        self.qkv = nn.Linear(n_embd, 3 * n_embd)
        self.core = MaskedDotProduct(dropout)
        self.out = nn.Linear(n_embd, n_embd)
        self.resid_drop = nn.Dropout(dropout)
        lower = torch.tril(torch.ones(block_size, block_size))
        self.register_buffer("lower", lower.view(1, 1, block_size, block_size))

    def forward(self, x):
        B, T, _ = x.shape
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        q, k, v = (t.view(B, T, self.n_head, self.head_dim).transpose(1, 2) for t in (q, k, v))

        ctx, probs = self.core(q, k, v, self.lower[:, :, :T, :T])
        ctx = ctx.transpose(1, 2).contiguous().view(B, T, self.n_embd)
        return self.resid_drop(self.out(ctx)), probs
