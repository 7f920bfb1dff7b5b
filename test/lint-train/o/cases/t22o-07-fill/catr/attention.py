# case: t22o-07-fill
# modelled-on: kaylode/caption-transformer https://github.com/kaylode/caption-transformer/commit/86d74dc25238d300fdbc0d0150c96a032001ff98
# label: buggy
# class: real-bug
# pattern: an image-captioning transformer's attention function fills masked scores with masked_fill(mask == 0, -1e9) after q @ k^T / sqrt(d_k); the trainer (trainer.py) runs the model's training step under torch.cuda.amp.autocast(enabled=use_amp), use_amp being the config's mixed_precision switch, with a GradScaler
# why: buggy: under autocast the matmul returns float16 scores, and masked_fill with -1e9 on a float16 tensor raises "value cannot be converted to type at::Half without overflow" (float16 tops out near 65504), so mixed-precision training, an option the trainer offers, crashes at the first masked batch; the author's next commit, "change smallest precision to float16", changes the fill to -1e4 (t22o-08-fill)
# source: https://github.com/kaylode/caption-transformer https://github.com/kaylode/caption-transformer/commit/86d74dc25238d300fdbc0d0150c96a032001ff98 models/transformer/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def attention(q, k, v, d_k, mask=None, dropout=None):
    """q, k, v: (batch, heads, len, d_k); mask: (batch, len_q or 1, len_k), 0 = masked."""
    scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        mask = mask.unsqueeze(1)
        scores = scores.masked_fill(mask == 0, -1e9)  # expect: ATT007
    scores = F.softmax(scores, dim=-1)
    if dropout is not None:
        scores = dropout(scores)
    return torch.matmul(scores, v)


class MultiHeadAttention(nn.Module):
    def __init__(self, heads, d_model, dropout=0.1):
        super().__init__()
        self.d_model = d_model
        self.d_k = d_model // heads
        self.h = heads
        self.q_linear = nn.Linear(d_model, d_model)
        self.k_linear = nn.Linear(d_model, d_model)
        self.v_linear = nn.Linear(d_model, d_model)
        self.dropout = nn.Dropout(dropout)
        self.out = nn.Linear(d_model, d_model)

    def forward(self, q, k, v, mask=None):
        bs = q.size(0)
        k = self.k_linear(k).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        q = self.q_linear(q).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        v = self.v_linear(v).view(bs, -1, self.h, self.d_k).transpose(1, 2)
        scores = attention(q, k, v, self.d_k, mask, self.dropout)
        concat = scores.transpose(1, 2).contiguous().view(bs, -1, self.d_model)
        return self.out(concat)
