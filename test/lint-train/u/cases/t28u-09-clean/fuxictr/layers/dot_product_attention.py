import torch
from torch import nn


class ScaledDotProductAttention(nn.Module):
    """Dot-product attention whose caller decides the scale (None = unscaled)."""

    def __init__(self, dropout_rate=0.0):
        super().__init__()
        self.dropout = nn.Dropout(dropout_rate) if dropout_rate > 0 else None

    def forward(self, Q, K, V, scale=None, mask=None):
        # Q, K, V: (batch, heads, fields, head_dim); mask: 0 at masked positions
        scores = torch.matmul(Q, K.transpose(-1, -2))  # (batch, heads, fields, fields)
        if scale:
            scores = scores / scale
        if mask is not None:
            mask = mask.view_as(scores)
            scores = scores.masked_fill_(mask.float() == 0, -1.0e9)
        attention = scores.softmax(dim=-1)
        if self.dropout is not None:
            attention = self.dropout(attention)
        return torch.matmul(attention, V), attention
