import numpy as np
import torch
from torch import nn


class ExpNormalisedAttention(nn.Module):
    """Scaled dot product whose weights are exp(scores) * keep / sum(exp(scores) * keep)."""

    def __init__(self, d_k: int) -> None:
        super().__init__()
        self.d_k = d_k

    def forward(self, q, k, v, keep=None):
        scores = torch.matmul(q, k.transpose(-1, -2)) / np.sqrt(self.d_k)
        weights = torch.exp(scores)
        if keep is not None:
            weights = weights * keep
        weights = weights / (weights.sum(dim=-1, keepdim=True) + 1e-8)
        return torch.matmul(weights, v), weights


class HistorySelfAttention(nn.Module):
    def __init__(self, d_model: int, n_heads: int) -> None:
        super().__init__()
        assert d_model % n_heads == 0
        self.n_heads = n_heads
        self.d_k = d_model // n_heads
        self.w_q = nn.Linear(d_model, d_model)
        self.w_k = nn.Linear(d_model, d_model)
        self.w_v = nn.Linear(d_model, d_model)
        for layer in (self.w_q, self.w_k, self.w_v):
            nn.init.xavier_uniform_(layer.weight, gain=1)
        self.attend = ExpNormalisedAttention(self.d_k)

    def _heads(self, x, proj):
        b = x.size(0)
        return proj(x).view(b, -1, self.n_heads, self.d_k).transpose(1, 2)

    def forward(self, x, length=None):
        b, n = x.size(0), x.size(1)
        q, k, v = self._heads(x, self.w_q), self._heads(x, self.w_k), self._heads(x, self.w_v)
        keep = None
        if length is not None:
            # 1 on the first `length` clicked items of each user, 0 on the padded slots
            keep = torch.arange(n, device=x.device).expand(b, n) < length.to(x.device).view(-1, 1)
            keep = keep.unsqueeze(1).expand(b, n, n).unsqueeze(1).repeat(1, self.n_heads, 1, 1)
        context, _ = self.attend(q, k, v, keep)
        return context.transpose(1, 2).contiguous().view(b, -1, self.n_heads * self.d_k)
