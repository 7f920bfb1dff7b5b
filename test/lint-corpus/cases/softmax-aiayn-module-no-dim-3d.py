# case: softmax-aiayn-module-no-dim-3d
# modelled-on: jadore801120/attention-is-all-you-need-pytorch https://github.com/jadore801120/attention-is-all-you-need-pytorch/issues/52
# label: buggy
# pattern: nn.Softmax() built without dim in __init__, applied to (n_head * B, L, S) scores from bmm
# why: with no dim PyTorch's legacy rule picks dim 0 for a 3-D input, i.e. it normalises across heads and batch, not over the keys
import numpy as np
import torch
import torch.nn as nn


class ScaledDotProductAttention(nn.Module):
    def __init__(self, temperature: float, attn_dropout: float = 0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)
        self.softmax = nn.Softmax()  # expect: ATT001

    def forward(self, q, k, v, mask=None):
        # q: (n_head * B, L, d_k); k: (n_head * B, S, d_k)
        attn = torch.bmm(q, k.transpose(1, 2))
        attn = attn / self.temperature
        if mask is not None:
            attn = attn.masked_fill(mask, -np.inf)
        attn = self.softmax(attn)
        attn = self.dropout(attn)
        output = torch.bmm(attn, v)
        return output, attn


class MultiHeadAttention(nn.Module):
    def __init__(self, n_head: int, d_model: int, d_k: int, d_v: int, dropout: float = 0.1):
        super().__init__()
        self.n_head, self.d_k, self.d_v = n_head, d_k, d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k)
        self.w_ks = nn.Linear(d_model, n_head * d_k)
        self.w_vs = nn.Linear(d_model, n_head * d_v)
        self.attention = ScaledDotProductAttention(temperature=np.power(d_k, 0.5))
        self.fc = nn.Linear(n_head * d_v, d_model)

    def forward(self, q, k, v, mask=None):
        sz_b, len_q, _ = q.size()
        len_k = k.size(1)
        q = self.w_qs(q).view(sz_b, len_q, self.n_head, self.d_k)
        k = self.w_ks(k).view(sz_b, len_k, self.n_head, self.d_k)
        v = self.w_vs(v).view(sz_b, len_k, self.n_head, self.d_v)
        q = q.permute(2, 0, 1, 3).contiguous().view(-1, len_q, self.d_k)  # (n*B, L, d_k)
        k = k.permute(2, 0, 1, 3).contiguous().view(-1, len_k, self.d_k)  # (n*B, S, d_k)
        v = v.permute(2, 0, 1, 3).contiguous().view(-1, len_k, self.d_v)
        if mask is not None:
            mask = mask.repeat(self.n_head, 1, 1)  # (n*B, L, S), True = padding key
        output, attn = self.attention(q, k, v, mask=mask)
        output = output.view(self.n_head, sz_b, len_q, self.d_v)
        output = output.permute(1, 2, 0, 3).contiguous().view(sz_b, len_q, -1)
        return self.fc(output), attn
