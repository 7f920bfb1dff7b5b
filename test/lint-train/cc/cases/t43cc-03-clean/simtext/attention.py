import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    """Multi-head attention; mask: [batch, seq, seq] or broadcastable, 0 = masked."""

    def __init__(self, embed_dim, num_heads, dropout=0.1):
        super().__init__()
        assert embed_dim % num_heads == 0
        self.embed_dim = embed_dim
        self.num_heads = num_heads
        self.head_dim = embed_dim // num_heads
        self.scale = math.sqrt(self.head_dim)
        self.q_linear = nn.Linear(embed_dim, embed_dim)
        self.k_linear = nn.Linear(embed_dim, embed_dim)
        self.v_linear = nn.Linear(embed_dim, embed_dim)
        self.out_proj = nn.Linear(embed_dim, embed_dim)
        self.dropout = nn.Dropout(dropout)

    def forward(self, query, key, value, mask=None):
        bsz, seq_len = query.size(0), query.size(1)
        Q = self.q_linear(query).view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)
        K = self.k_linear(key).view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)
        V = self.v_linear(value).view(bsz, seq_len, self.num_heads, self.head_dim).transpose(1, 2)

        scores = torch.matmul(Q, K.transpose(-2, -1)) / self.scale
        if mask is not None:
            if mask.dim() == 3:
                mask = mask.unsqueeze(1)
            # fill the masked positions with a very small value so softmax gives ~0
            scores.masked_fill_(mask == 0, float('-inf'))

        weights = self.dropout(F.softmax(scores, dim=-1))
        context = torch.matmul(weights, V).transpose(1, 2).contiguous().view(bsz, seq_len, self.embed_dim)
        return self.out_proj(context)
