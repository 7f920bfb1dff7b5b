import torch
import torch.nn.functional as F
from torch import nn


class GraphMaskedAttention(nn.Module):
    """Multi-head self-attention restricted by a node-visibility matrix (1 = may attend, 0 = blocked)."""

    def __init__(self, dim: int, n_heads: int, dropout: float = 0.0):
        super().__init__()
        assert dim % n_heads == 0, "dim must split evenly into heads"
        self.dim, self.n_heads, self.d_head = dim, n_heads, dim // n_heads
        self.wq, self.wk, self.wv = nn.Linear(dim, dim), nn.Linear(dim, dim), nn.Linear(dim, dim)
        self.wo = nn.Linear(dim, dim)
        self.dropout = dropout

    def split(self, t: torch.Tensor) -> torch.Tensor:
        b, n, _ = t.shape
        return t.view(b, n, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, x: torch.Tensor, visible: torch.Tensor = None) -> torch.Tensor:
        b, n, _ = x.shape
        q, k, v = self.split(self.wq(x)), self.split(self.wk(x)), self.split(self.wv(x))
        scores = q @ k.transpose(-2, -1) / self.d_head ** 0.5
        if visible is not None:
            if visible.dim() == 2:
                visible = visible[None, None]
            elif visible.dim() == 3:
                visible = visible[:, None]
            scores = scores.masked_fill(visible == 0, float("-inf"))
        probs = F.dropout(F.softmax(scores, dim=-1), p=self.dropout, training=self.training)
        out = (probs @ v).transpose(1, 2).reshape(b, n, self.dim)
        return self.wo(out)
