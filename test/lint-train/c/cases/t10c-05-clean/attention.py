# case: t10c-05-clean
# modelled-on: jsbaan/transformer-from-scratch https://github.com/jsbaan/transformer-from-scratch/commit/d4841b2
# label: correct
# class: clean
# pattern: keep masks built in another module (triu(full(1), 1) == 0 for the future, tokens != pad for padding) and filled where they are 0 (masked_fill(mask == 0, -inf)) in a static mask helper of the attention
# why: triu(..., diagonal=1) == 0 is True on and below the diagonal, the allowed connections, as the helper's docstring says; mask == 0 therefore fills exactly the future and the pad keys, and the diagonal is never masked
# looks-like: ATT002, ATT007
# source: https://github.com/jsbaan/transformer-from-scratch https://github.com/jsbaan/transformer-from-scratch/commit/d4841b2 multi_head_attention.py
import math
from typing import Optional

import torch
from torch import nn
from torch.nn import functional as F

from masks import future_keep_mask


class MultiHeadAttention(nn.Module):
    def __init__(self, hidden_dim: int, num_heads: int):
        super().__init__()
        assert hidden_dim % num_heads == 0
        self.num_heads = num_heads
        self.head_dim = hidden_dim // num_heads
        self.qkv = nn.Linear(hidden_dim, 3 * hidden_dim, bias=False)
        self.out = nn.Linear(hidden_dim, hidden_dim, bias=False)

    def forward(self, x, src_padding_mask: Optional[torch.Tensor] = None, future_mask: Optional[torch.Tensor] = None):
        n, t, e = x.shape
        q, k, v = self.qkv(x).view(n, t, self.num_heads, 3 * self.head_dim).transpose(1, 2).chunk(3, dim=-1)
        logits = torch.matmul(q, torch.transpose(k, -2, -1)) / math.sqrt(q.size()[-1])
        if src_padding_mask is not None or future_mask is not None:
            logits = self.mask_logits(logits, src_padding_mask, future_mask)
        weights = F.softmax(logits, dim=-1)
        values = torch.matmul(weights, v)
        return self.out(values.transpose(1, 2).reshape(n, t, e))

    @staticmethod
    def mask_logits(logits, src_padding_mask=None, future_mask=None):
        """Sets every logit whose mask entry is False to -inf. src_padding_mask: (N, S); future_mask: (T, T)."""
        if src_padding_mask is not None:
            logits = logits.masked_fill(src_padding_mask[:, None, None, :] == 0, float("-inf"))
        if future_mask is not None:
            logits = logits.masked_fill(future_mask == 0, float("-inf"))
        return logits


if __name__ == "__main__":
    mha = MultiHeadAttention(64, 4)
    x = torch.randn(2, 5, 64)
    print(mha(x, future_mask=future_keep_mask(5)).shape)
