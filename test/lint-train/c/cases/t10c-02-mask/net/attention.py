import math

import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    """Multi-head attention with an optional look-ahead mask and a padding mask."""

    def __init__(self, n_heads, d_model):
        super().__init__()
        assert d_model % n_heads == 0, "d_model must be divisible by n_heads"
        self.n_heads = n_heads
        self.d_model = d_model
        self.d_head = d_model // n_heads
        self.q_proj = nn.Linear(d_model, d_model, bias=False)
        self.k_proj = nn.Linear(d_model, d_model, bias=False)
        self.v_proj = nn.Linear(d_model, d_model, bias=False)
        self.out_proj = nn.Linear(d_model, d_model, bias=False)

    def _heads(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.n_heads, self.d_head).transpose(1, 2)

    def forward(self, query, key, value, look_ahead=False, pad_mask=None):
        """pad_mask: (B, 1, 1, S), so that padding tokens get no attention."""
        q = self._heads(self.q_proj(query))
        k = self._heads(self.k_proj(key))
        v = self._heads(self.v_proj(value))

        scores = torch.matmul(q, k.permute(0, 1, 3, 2)) / math.sqrt(self.d_head)

        if look_ahead:
            t = q.shape[2]
            lower = torch.tril(torch.ones(t, t, device=scores.device))
            scores = scores.masked_fill(lower == 0, -1e9)

        if pad_mask is not None:
            scores = scores.masked_fill(pad_mask == 1, -1e9)

        weights = torch.softmax(scores, dim=-1)
        out = torch.matmul(weights, v).transpose(1, 2)
        b, t = out.shape[0], out.shape[1]
        return self.out_proj(out.reshape(b, t, self.d_model))
