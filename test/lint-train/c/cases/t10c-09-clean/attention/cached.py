import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedSelfAttention(nn.Module):
    def __init__(self, d_model, n_heads):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)

    def forward(self, x, mask=None, past_kv=None):
        """mask: (B, 1, S_q, S_k), 1 = attend; past_kv: (K, V) of shape (B, H, S_past, D) during decoding."""
        b, s, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=-1)
        q, k, v = (t.view(b, s, self.n_heads, c // self.n_heads).transpose(1, 2) for t in (q, k, v))
        if past_kv is not None:
            k = torch.cat([past_kv[0], k], dim=2)
            v = torch.cat([past_kv[1], v], dim=2)
        scores = torch.matmul(q, k.transpose(-2, -1)) / q.size(-1) ** 0.5
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        out = torch.matmul(F.softmax(scores, dim=-1), v)
        return self.proj(out.transpose(1, 2).reshape(b, s, c)), (k, v)
