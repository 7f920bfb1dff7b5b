import torch
import torch.nn as nn
import torch.nn.functional as F


class DotProductAttention(nn.Module):
    """softmax(Q K^T / sqrt(d_k)) V over [batch, heads, len, d_k] tensors."""

    def __init__(self, d_k, dropout=None):
        super().__init__()
        self.d_k = d_k
        self.dropout = nn.Dropout(dropout) if dropout is not None else nn.Identity()

    def forward(self, q, k, v, mask):
        # mask: [batch, heads, len_q, len_k], nonzero where attention is allowed
        scores = torch.matmul(q, k.transpose(-1, -2)) / (self.d_k ** 0.5)
        scores = scores.masked_fill(mask == 0, -1e9)
        weights = self.dropout(F.softmax(scores, dim=-1))
        return torch.matmul(weights, v), weights


class MaskedSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=None):
        super().__init__()
        assert d_model % n_heads == 0
        self.d_model = d_model
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.to_q = nn.Linear(d_model, d_model)
        self.to_k = nn.Linear(d_model, d_model)
        self.to_v = nn.Linear(d_model, d_model)
        self.core = DotProductAttention(self.d_k, dropout)
        self.proj = nn.Linear(d_model, d_model)

    def _split(self, x):
        b = x.size(0)
        return x.view(b, -1, self.n_heads, self.d_k).permute(0, 2, 1, 3)

    def forward(self, x, mask):
        b = x.size(0)
        q, k, v = self._split(self.to_q(x)), self._split(self.to_k(x)), self._split(self.to_v(x))
        # [batch, len, len] -> one copy per head
        per_head = mask.unsqueeze(1).repeat(1, self.n_heads, 1, 1)
        ctx, weights = self.core(q, k, v, per_head)
        ctx = ctx.permute(0, 2, 1, 3).contiguous().view(b, -1, self.d_model)
        return self.proj(ctx), weights
