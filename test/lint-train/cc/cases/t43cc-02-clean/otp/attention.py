import torch
from torch import nn
import torch.nn.functional as F


def dot_product_attention(q, k, v, mask=None, drop=None):
    # q, k, v: (batch, heads, seq, head_dim)
    scale = q.size(-1) ** 0.5
    att = torch.einsum('bhqd,bhkd->bhqk', q, k) / scale
    if mask is not None:
        att = att.masked_fill(mask == 0, float('-inf'))
    att = F.softmax(att, dim=-1)
    if drop is not None:
        att = drop(att)
    return att @ v


class MultiHead(nn.Module):
    def __init__(self, d_model, h, dropout=0.1):
        super().__init__()
        self.h = h
        self.d_head = d_model // h
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.wo = nn.Linear(d_model, d_model)
        self.drop = nn.Dropout(dropout)

    def _heads(self, t):
        return t.view(t.size(0), -1, self.h, self.d_head).transpose(1, 2)

    def forward(self, query, key, value, mask=None):
        b = query.size(0)
        out = dot_product_attention(
            self._heads(self.wq(query)), self._heads(self.wk(key)), self._heads(self.wv(value)), mask, self.drop
        )
        return self.wo(out.transpose(1, 2).contiguous().view(b, -1, self.h * self.d_head))
