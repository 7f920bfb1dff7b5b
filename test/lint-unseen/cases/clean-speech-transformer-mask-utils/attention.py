# case: clean-speech-transformer-mask-utils
# modelled-on: kaituoxu/Speech-Transformer https://github.com/kaituoxu/Speech-Transformer/blob/master/src/transformer/attention.py
# label: correct
# class: clean
# pattern: a three-file workspace: the masks are built in utils.py (lengths -> non-pad mask -> .lt(1) as a "not", eq(pad_idx) key padding, triu(diagonal=1) future mask, the two combined with (a + b).gt(0) in decoder.py) and reach an attention whose heads are folded into the batch by permute + view, with an nn.Softmax(dim=2) module and a temperature of d_k ** 0.5 passed from the constructor
# why: every mask is True at the positions to hide (padding or future), which is what masked_fill(mask, -inf) fills; dim=2 of the (n*b, lq, lk) scores is the key axis; the temperature is sqrt(d_k), the per-head size; rows keep at least the first key (the decoder input starts with <sos>), so -inf makes no NaN row
# looks-like: ATT001, ATT002, ATT004, ATT007
# source: https://github.com/kaituoxu/Speech-Transformer https://github.com/kaituoxu/Speech-Transformer/commit/43d83eab2e4e25a4250ddff702aa0a2d4dffe4e6 src/transformer/attention.py
import numpy as np
import torch
import torch.nn as nn


class MultiHeadAttention(nn.Module):
    """Multi-Head Attention module"""

    def __init__(self, n_head, d_model, d_k, d_v, dropout=0.1):
        super().__init__()
        self.n_head = n_head
        self.d_k = d_k
        self.d_v = d_v
        self.w_qs = nn.Linear(d_model, n_head * d_k)
        self.w_ks = nn.Linear(d_model, n_head * d_k)
        self.w_vs = nn.Linear(d_model, n_head * d_v)
        self.attention = ScaledDotProductAttention(temperature=np.power(d_k, 0.5), attn_dropout=dropout)
        self.layer_norm = nn.LayerNorm(d_model)
        self.fc = nn.Linear(n_head * d_v, d_model)
        self.dropout = nn.Dropout(dropout)

    def forward(self, q, k, v, mask=None):
        d_k, d_v, n_head = self.d_k, self.d_v, self.n_head
        sz_b, len_q, _ = q.size()
        sz_b, len_k, _ = k.size()
        sz_b, len_v, _ = v.size()
        residual = q

        q = self.w_qs(q).view(sz_b, len_q, n_head, d_k)
        k = self.w_ks(k).view(sz_b, len_k, n_head, d_k)
        v = self.w_vs(v).view(sz_b, len_v, n_head, d_v)

        q = q.permute(2, 0, 1, 3).contiguous().view(-1, len_q, d_k)  # (n*b) x lq x dk
        k = k.permute(2, 0, 1, 3).contiguous().view(-1, len_k, d_k)  # (n*b) x lk x dk
        v = v.permute(2, 0, 1, 3).contiguous().view(-1, len_v, d_v)  # (n*b) x lv x dv

        if mask is not None:
            mask = mask.repeat(n_head, 1, 1)  # (n*b) x .. x ..

        output, attn = self.attention(q, k, v, mask=mask)

        output = output.view(n_head, sz_b, len_q, d_v)
        output = output.permute(1, 2, 0, 3).contiguous().view(sz_b, len_q, -1)  # b x lq x (n*dv)
        output = self.dropout(self.fc(output))
        return self.layer_norm(output + residual), attn


class ScaledDotProductAttention(nn.Module):
    """Scaled Dot-Product Attention"""

    def __init__(self, temperature, attn_dropout=0.1):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)
        self.softmax = nn.Softmax(dim=2)

    def forward(self, q, k, v, mask=None):
        attn = torch.bmm(q, k.transpose(1, 2))
        attn = attn / self.temperature
        if mask is not None:
            attn = attn.masked_fill(mask, -np.inf)
        attn = self.softmax(attn)
        attn = self.dropout(attn)
        return torch.bmm(attn, v), attn
