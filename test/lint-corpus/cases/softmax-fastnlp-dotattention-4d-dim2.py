# case: softmax-fastnlp-dotattention-4d-dim2
# modelled-on: FudanNLP/fastNLP https://github.com/FudanNLP/fastNLP/issues/254
# label: buggy
# pattern: a DotAttention written for 3-D (B, L, S) scores hard-codes nn.Softmax(dim=2); MultiHeadAttention then feeds it 4-D (B, H, L, S) scores
# why: on (B, H, L, S) dim 2 is the query axis L, so the weights are normalised over queries instead of keys
import math

import torch
from torch import nn


class DotAttention(nn.Module):
    def __init__(self, key_size: int, value_size: int, dropout: float = 0.0):
        super().__init__()
        self.key_size = key_size
        self.value_size = value_size
        self.scale = math.sqrt(key_size)
        self.drop = nn.Dropout(dropout)
        self.softmax = nn.Softmax(dim=2)  # expect: ATT001

    def forward(self, q, k, v, mask_out=None):
        """mask_out: bool, True where the key must be ignored."""
        output = torch.matmul(q, k.transpose(-1, -2)) / self.scale
        if mask_out is not None:
            output.masked_fill_(mask_out, -1e9)
        output = self.softmax(output)
        output = self.drop(output)
        return torch.matmul(output, v)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model: int = 512, n_head: int = 8, dropout: float = 0.1):
        super().__init__()
        assert d_model % n_head == 0, "d_model must be divisible by n_head"
        self.n_head = n_head
        self.head_dim = d_model // n_head
        self.q_proj = nn.Linear(d_model, d_model)
        self.k_proj = nn.Linear(d_model, d_model)
        self.v_proj = nn.Linear(d_model, d_model)
        self.out = nn.Linear(d_model, d_model)
        self.attention = DotAttention(self.head_dim, self.head_dim, dropout)

    def forward(self, query, key, value, seq_mask=None):
        # query: (B, L, d_model); key/value: (B, S, d_model); seq_mask: (B, S) 1 = token
        batch, len_q, _ = query.size()
        len_k = key.size(1)
        q = self.q_proj(query).view(batch, len_q, self.n_head, self.head_dim).transpose(1, 2)  # (B, H, L, hd)
        k = self.k_proj(key).view(batch, len_k, self.n_head, self.head_dim).transpose(1, 2)  # (B, H, S, hd)
        v = self.v_proj(value).view(batch, len_k, self.n_head, self.head_dim).transpose(1, 2)
        mask_out = None
        if seq_mask is not None:
            mask_out = seq_mask.eq(0)[:, None, None, :]  # (B, 1, 1, S), True = padding
        atte = self.attention(q, k, v, mask_out)  # (B, H, L, hd)
        atte = atte.transpose(1, 2).contiguous().view(batch, len_q, -1)
        return self.out(atte)
