import copy

import torch.nn as nn

from pedtraj.functional import attention


class MultiHeadAttention(nn.Module):
    def __init__(self, h, d_model, dropout=0.1):
        super().__init__()
        assert d_model % h == 0
        self.d_k, self.h = d_model // h, h
        self.proj = nn.ModuleList([copy.deepcopy(nn.Linear(d_model, d_model)) for _ in range(4)])
        self.dropout = nn.Dropout(p=dropout)
        self.last_attn = None

    def forward(self, query, key, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)  # same mask for every head
        b = query.size(0)
        query, key, value = [
            lin(x).view(b, -1, self.h, self.d_k).transpose(1, 2) for lin, x in zip(self.proj, (query, key, value))
        ]
        x, self.last_attn = attention(query, key, value, mask=mask, dropout=self.dropout)
        x = x.transpose(1, 2).contiguous().view(b, -1, self.h * self.d_k)
        return self.proj[-1](x)
