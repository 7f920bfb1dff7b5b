import torch.nn as nn

from .attention import attention
from .helper import clones


class MultiHeadedAttention(nn.Module):
    def __init__(self, h, d_model, p_dropout=0.1):
        super().__init__()
        assert d_model % h == 0
        self.d_head = d_model // h
        self.h = h
        self.q_fc, self.k_fc, self.v_fc = clones(nn.Linear(d_model, d_model), 3)
        self.final_fc = nn.Linear(d_model, d_model)
        self.attn = None
        self.dropout = nn.Dropout(p=p_dropout)

    def forward(self, attn_from, attn_to, value, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)  # the same mask for all heads
        n_batches = value.size(0)
        query = self.q_fc(attn_from).view(n_batches, -1, self.h, self.d_head).transpose(1, 2)
        key = self.k_fc(attn_to).view(n_batches, -1, self.h, self.d_head).transpose(1, 2)
        value = self.v_fc(value).view(n_batches, -1, self.h, self.d_head).transpose(1, 2)
        context, self.attn = attention(query, key, value, mask=mask, dropout=self.dropout)
        context = context.transpose(1, 2).contiguous().view(n_batches, -1, self.h * self.d_head)
        return self.final_fc(context)
