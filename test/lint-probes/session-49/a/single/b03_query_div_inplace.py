import math
import torch
import torch.nn as nn


class QueryDivAttention(nn.Module):
    def __init__(self, d_model, n_head):
        super().__init__()
        self.n_head = n_head
        self.d_k = d_model // n_head
        self.linears = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(4)])

    def forward(self, query, key, value):
        nbatches = query.size(0)
        query, key, value = [lin(x).view(nbatches, -1, self.n_head, self.d_k).transpose(1, 2) for lin, x in zip(self.linears, (query, key, value))]
        query.div_(math.sqrt(self.d_k))
        scores = torch.matmul(query, key.transpose(-2, -1))
        p_attn = scores.softmax(dim=-1)
        x = torch.matmul(p_attn, value).transpose(1, 2).contiguous().view(nbatches, -1, self.n_head * self.d_k)
        return self.linears[-1](x)
