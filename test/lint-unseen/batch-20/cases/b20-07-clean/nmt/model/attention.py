# case: b20-07-clean
# modelled-on: AbdelrahmanSaadIdress/multinmt-from-scratch https://github.com/AbdelrahmanSaadIdress/multinmt-from-scratch/commit/b410de55ac655a6c32db19e2f63e4caf92e7fcc9
# label: correct
# class: clean
# pattern: a multilingual NMT transformer written from the paper: the model's static mask helpers (model/masks.py) return keep masks, (src != pad) unsqueezed to (B, 1, 1, S) and tril(ones).bool() & (tgt != pad)[:, None, None, :] for the decoder; the trainer (training/trainer.py) builds them and can train under torch.amp with a GradScaler; the attention fills masked_fill(mask == 0, -1e4) before a softmax over the key axis, on scores divided by sqrt(d_h)
# why: correct: the masks are 1 where attention is allowed, so mask == 0 selects padding and future keys; -1e4 is inside float16's range (-65504), so the fill is safe when the trainer runs in mixed precision, and it is large enough to zero the hidden keys; the causal part keeps the diagonal
# looks-like: ATT002, ATT007
# source: https://github.com/AbdelrahmanSaadIdress/multinmt-from-scratch https://github.com/AbdelrahmanSaadIdress/multinmt-from-scratch/commit/b410de55ac655a6c32db19e2f63e4caf92e7fcc9 model/attention.py
from typing import Optional

import torch
import torch.nn as nn
from torch import Tensor


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int, num_heads: int, dropout: float = 0.1):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_h = d_model // num_heads
        self.W_q = nn.Linear(d_model, d_model)
        self.W_k = nn.Linear(d_model, d_model)
        self.W_v = nn.Linear(d_model, d_model)
        self.W_o = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)

    def scaled_dot_product(self, queries: Tensor, keys: Tensor, values: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        """mask: binary, 0 = ignore this position (padding or a future token)."""
        scores = torch.matmul(queries, keys.transpose(-1, -2)) / (self.d_h**0.5)
        if mask is not None:
            scores = scores.masked_fill(mask == 0, -1e4)
        weights = torch.softmax(scores, dim=-1)
        return torch.matmul(self.dropout(weights), values)

    def _split(self, x: Tensor) -> Tensor:
        b, n, _ = x.shape
        return x.view(b, n, self.num_heads, self.d_h).transpose(1, 2)

    def forward(self, query: Tensor, key: Tensor, value: Tensor, mask: Optional[Tensor] = None) -> Tensor:
        b, n, d = query.shape
        out = self.scaled_dot_product(self._split(self.W_q(query)), self._split(self.W_k(key)), self._split(self.W_v(value)), mask)
        return self.W_o(out.transpose(1, 2).contiguous().view(b, n, d))
