# case: t10c-11-clean
# modelled-on: zhan7721/llm-from-scratch https://github.com/zhan7721/llm-from-scratch/commit/3d0a2b3
# label: correct
# class: clean
# pattern: one attention function with two masks of opposite conventions: a causal triu(ones, diagonal=1).bool() filled where True, and an optional caller mask filled where it is 0; grouped-query attention repeats the key/value heads with expand + reshape
# why: the triu mask is True on the future and masked_fill hides True entries; the optional mask is documented as a keep mask (0 = masked), so mask == 0 hides the right entries; the scale is per head (d_model // n_heads)
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/zhan7721/llm-from-scratch https://github.com/zhan7721/llm-from-scratch/commit/3d0a2b3 01-foundations/03_attention/solution.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class GroupedQueryAttention(nn.Module):
    """n_heads query heads share n_kv_heads key/value heads; causal: apply a causal mask."""

    def __init__(self, d_model: int, n_heads: int, n_kv_heads: int, causal: bool = False):
        super().__init__()
        assert d_model % n_heads == 0
        assert n_heads % n_kv_heads == 0, "n_heads must be divisible by n_kv_heads"
        self.n_heads = n_heads
        self.n_kv_heads = n_kv_heads
        self.d_k = d_model // n_heads
        self.n_rep = n_heads // n_kv_heads
        self.causal = causal
        self.W_q = nn.Linear(d_model, n_heads * self.d_k, bias=False)
        self.W_k = nn.Linear(d_model, n_kv_heads * self.d_k, bias=False)
        self.W_v = nn.Linear(d_model, n_kv_heads * self.d_k, bias=False)
        self.W_o = nn.Linear(d_model, d_model, bias=False)

    def _repeat_kv(self, x: torch.Tensor) -> torch.Tensor:
        """(B, n_kv_heads, T, d_k) -> (B, n_heads, T, d_k)."""
        B, n_kv, T, d_k = x.shape
        if self.n_rep == 1:
            return x
        return x[:, :, None, :, :].expand(B, n_kv, self.n_rep, T, d_k).reshape(B, self.n_heads, T, d_k)

    def forward(self, x: torch.Tensor, mask: torch.Tensor = None) -> torch.Tensor:
        """mask: optional, broadcastable to (B, n_heads, T, T); 0 marks a masked position."""
        B, T, C = x.shape
        Q = self.W_q(x).view(B, T, self.n_heads, self.d_k).transpose(1, 2)
        K = self._repeat_kv(self.W_k(x).view(B, T, self.n_kv_heads, self.d_k).transpose(1, 2))
        V = self._repeat_kv(self.W_v(x).view(B, T, self.n_kv_heads, self.d_k).transpose(1, 2))

        scores = torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(self.d_k)
        if self.causal:
            future = torch.triu(torch.ones(T, T, device=x.device), diagonal=1).bool()
            scores = scores.masked_fill(future, float("-inf"))
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))

        weights = F.softmax(scores, dim=-1)
        out = torch.matmul(weights, V).transpose(1, 2).contiguous().view(B, T, C)
        return self.W_o(out)


if __name__ == "__main__":
    gqa = GroupedQueryAttention(64, 8, 2, causal=True)
    tokens = torch.tensor([[5, 6, 7, 0], [1, 2, 3, 4]])
    keep = (tokens != 0)[:, None, None, :]
    print(gqa(torch.randn(2, 4, 64), mask=keep).shape)
