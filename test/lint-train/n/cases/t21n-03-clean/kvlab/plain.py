import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class PlainAttention(nn.Module):
    def __init__(self, d_model, n_heads, dropout=0.1):
        super().__init__()
        self.d_model = d_model
        self.n_heads = n_heads
        self.head_dim = d_model // n_heads
        self.dropout = dropout
        self.wq = nn.Parameter(0.02 * torch.randn(d_model, d_model))
        self.wk = nn.Parameter(0.02 * torch.randn(d_model, d_model))
        self.wv = nn.Parameter(0.02 * torch.randn(d_model, d_model))
        self.wo = nn.Parameter(0.02 * torch.randn(d_model, d_model))

    def forward(self, x, kv_cache=None, past_length=0):
        b, t, _ = x.shape
        q = (x @ self.wq.T).view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        k = (x @ self.wk.T).view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        v = (x @ self.wv.T).view(b, t, self.n_heads, self.head_dim).transpose(1, 2)
        if kv_cache is not None:
            past_k, past_v = kv_cache
            k = torch.cat([past_k, k], dim=2)
            v = torch.cat([past_v, v], dim=2)

        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(self.head_dim)
        blocked = torch.triu(torch.ones(t, k.size(2)), diagonal=past_length + 1).bool().to(x.device)
        scores = scores.masked_fill(blocked[None, None], float("-inf"))
        weights = F.dropout(F.softmax(scores, dim=-1), p=self.dropout, training=self.training)
        out = torch.matmul(weights, v).transpose(1, 2).contiguous().view(b, t, self.d_model)
        return out @ self.wo.T, (k, v)


@torch.no_grad()
def decode(layer, prompt, steps):
    """Runs the prompt once, then one position at a time against the growing cache."""
    out, cache = layer(prompt)
    x = out[:, -1:, :]
    outs = [x]
    for _ in range(steps):
        past = cache[0].size(2)
        x, cache = layer(x, kv_cache=cache, past_length=past)
        outs.append(x)
    return torch.cat(outs, dim=1)
