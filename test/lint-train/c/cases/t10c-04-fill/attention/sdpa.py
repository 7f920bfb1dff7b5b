import torch
import torch.nn as nn
import torch.nn.functional as F


class ScaledDotProduct(nn.Module):
    def __init__(self, dropout=0.0):
        super().__init__()
        self.drop = nn.Dropout(dropout)

    def forward(self, q, k, v, mask=None):
        # q: (B, H, S_q, D), k and v: (B, H, S_k, D); mask broadcastable to (B, H, S_q, S_k), 1 = attend
        d = q.size(-1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / d**0.5
        if mask is not None:
            scores = scores.masked_fill(mask == 0, float("-inf"))
        weights = self.drop(F.softmax(scores, dim=-1))
        return torch.matmul(weights, v), weights


class SelfAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.0):
        super().__init__()
        self.n_heads = n_heads
        self.qkv = nn.Linear(d_model, 3 * d_model)
        self.proj = nn.Linear(d_model, d_model)
        self.core = ScaledDotProduct(dropout)

    def forward(self, x, mask=None):
        b, s, c = x.shape
        q, k, v = self.qkv(x).split(c, dim=-1)
        q, k, v = (t.view(b, s, self.n_heads, c // self.n_heads).transpose(1, 2) for t in (q, k, v))
        out, _ = self.core(q, k, v, mask=mask)
        return self.proj(out.transpose(1, 2).reshape(b, s, c))
