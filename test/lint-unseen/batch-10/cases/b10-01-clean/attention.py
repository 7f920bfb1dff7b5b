import torch
import torch.nn as nn
import torch.nn.functional as F


class CachedSelfAttention(nn.Module):
    """Self-attention that carries its keys and values in a state tuple (empty at the start)."""

    def __init__(self, n_embd, n_head, dropout=0.0, bias=False):
        super().__init__()
        assert n_embd % n_head == 0
        self.n_head = n_head
        self.n_embd = n_embd
        self.dropout = dropout
        self.c_attn = nn.Linear(n_embd, 3 * n_embd, bias=bias)
        self.c_proj = nn.Linear(n_embd, n_embd, bias=bias)

    def initial_state(self, batch_size, device=None):
        hs = self.n_embd // self.n_head
        empty = torch.zeros(batch_size, self.n_head, 0, hs, device=device)
        return (empty, empty)

    def forward(self, x, state):
        B, T, C = x.size()
        hs = C // self.n_head
        q, k, v = self.c_attn(x).split(self.n_embd, dim=2)
        q = q.view(B, T, self.n_head, hs).transpose(1, 2)
        k = k.view(B, T, self.n_head, hs).transpose(1, 2)
        v = v.view(B, T, self.n_head, hs).transpose(1, 2)

        past_k, past_v = state
        offset = past_k.size(2)
        k = torch.cat([past_k, k], dim=2)
        v = torch.cat([past_v, v], dim=2)

        # additive mask: every cached key is visible, the new tokens see each other causally
        neg = torch.finfo(torch.float32).min
        causal = torch.triu(torch.full((T, T), neg, device=x.device), diagonal=1)
        bias = torch.cat([torch.zeros(T, offset, device=x.device), causal], dim=1)

        y = F.scaled_dot_product_attention(
            q,
            k,
            v,
            attn_mask=None if self.training else bias,
            is_causal=True if self.training else False,
            dropout_p=self.dropout if self.training else 0.0,
        )
        y = y.transpose(1, 2).contiguous().view(B, T, C)
        return self.c_proj(y), (k, v)
