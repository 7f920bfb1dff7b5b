import torch
import torch.nn as nn

LN_EPS = 1e-8


class CausalSelfAttention(nn.Module):
    """Single-head causal self-attention that also ignores padded keys."""

    def __init__(self, dim: int, dropout: float):
        super().__init__()
        self.Wq = nn.Linear(dim, dim)
        self.Wk = nn.Linear(dim, dim)
        self.Wv = nn.Linear(dim, dim)
        self.dropout = nn.Dropout(dropout)
        self.scale = dim**-0.5  # one head: d_k is the full width

    def forward(self, x: torch.Tensor, keep: torch.Tensor) -> torch.Tensor:
        # x: [B, L, D]; keep: [B, L] bool, True on real items
        _, n, _ = x.shape
        q, k, v = self.Wq(x), self.Wk(x), self.Wv(x)
        logits = (q @ k.transpose(1, 2)) * self.scale  # [B, L, L]
        causal = torch.tril(torch.ones(n, n, dtype=torch.bool, device=x.device))  # j <= i allowed
        allowed = causal.unsqueeze(0) & keep.unsqueeze(1)
        logits = logits.masked_fill(~allowed, float("-inf"))
        attn = torch.softmax(logits, dim=-1)
        attn = torch.nan_to_num(attn)  # padded (left) query rows have no allowed key
        return self.dropout(attn) @ v


class Block(nn.Module):
    def __init__(self, dim: int, dropout: float):
        super().__init__()
        self.attn_norm = nn.LayerNorm(dim, eps=LN_EPS)
        self.attn = CausalSelfAttention(dim, dropout)
        self.ffn_norm = nn.LayerNorm(dim, eps=LN_EPS)
        self.ffn = nn.Sequential(nn.Linear(dim, dim), nn.ReLU(), nn.Dropout(dropout), nn.Linear(dim, dim))

    def forward(self, x, keep):
        y = self.attn_norm(x)
        x = y + self.attn(y, keep)
        z = self.ffn_norm(x)
        x = z + self.ffn(z)
        return x * keep.unsqueeze(-1)  # zero the padded positions
