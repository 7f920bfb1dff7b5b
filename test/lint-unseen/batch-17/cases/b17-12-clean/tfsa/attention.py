# case: b17-12-clean
# modelled-on: winddori2002/Time-aware-and-Feature-similarity-Self-Attention https://github.com/winddori2002/Time-aware-and-Feature-similarity-Self-Attention/commit/6bb7575121722ebe215633479d9e8ae3e51baa30
# label: correct
# class: clean
# pattern: a single-head self-attention over BiLSTM states of padded health-record sequences: the temperature sqrt(d_model) is set in __init__ and the queries are divided by it before torch.matmul(q / temperature, k.transpose(1, 2)); a helper in a utilities module builds a (batch, len, len) keep mask that zeroes both the rows and the columns of padded steps and fills -inf where it is 0; the softmax runs over the last axis, dropout follows, and masked_fill(torch.isnan(weights), 0) clears the rows of padded queries, which were entirely -inf
# why: correct: the mask is a keep mask filled where it equals 0, so padded keys get -inf and zero weight; the rows of padded queries are all -inf and become NaN in the softmax by construction, and the isnan fill after the softmax turns exactly those rows into zeros (no real query row is touched, so it is not a key mask applied after the softmax); dividing q by sqrt(d_model) scales the single head's scores once; k.transpose(1, 2) swaps the key's steps and features of the 3-D tensor
# looks-like: ATT002, ATT003, ATT004, ATT005, ATT006, ATT007
# source: https://github.com/winddori2002/Time-aware-and-Feature-similarity-Self-Attention https://github.com/winddori2002/Time-aware-and-Feature-similarity-Self-Attention/commit/6bb7575121722ebe215633479d9e8ae3e51baa30 attention_modules.py, utils.py
import torch
import torch.nn as nn
import torch.nn.functional as F

from tfsa.utils import pad_masking


class ScaledDotProduct(nn.Module):
    def __init__(self, temperature, attn_dropout):
        super().__init__()
        self.temperature = temperature
        self.dropout = nn.Dropout(attn_dropout)

    def forward(self, q, k, v, inputs_lengths):
        attn = torch.matmul(q / self.temperature, k.transpose(1, 2))
        attn = pad_masking(attn, inputs_lengths)
        attn = self.dropout(F.softmax(attn, dim=-1))
        attn = attn.masked_fill(torch.isnan(attn), 0)
        return torch.matmul(attn, v), attn


class SingleHeadAttention(nn.Module):
    def __init__(self, d_model, dropout):
        super().__init__()
        self.temperature = d_model ** 0.5
        self.w_q = nn.Linear(d_model, d_model, bias=False)
        self.w_k = nn.Linear(d_model, d_model, bias=False)
        self.w_v = nn.Linear(d_model, d_model, bias=False)
        self.fc = nn.Linear(d_model, d_model, bias=False)
        self.attention = ScaledDotProduct(self.temperature, dropout)
        self.dropout = nn.Dropout(dropout)
        self.layer_norm = nn.LayerNorm(d_model, eps=1e-6)

    def forward(self, q, k, v, inputs_lengths):
        batch, steps = q.size(0), q.size(1)
        residual = q.clone()
        q = self.w_q(q).view(batch, steps, -1)
        k = self.w_k(k).view(batch, steps, -1)
        v = self.w_v(v).view(batch, steps, -1)
        out, attn = self.attention(q, k, v, inputs_lengths)
        out = self.dropout(self.fc(out)) + residual
        return self.layer_norm(out), attn
