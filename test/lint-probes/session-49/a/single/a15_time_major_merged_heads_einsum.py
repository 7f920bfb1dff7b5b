import math
import torch
import torch.nn as nn


class TimeMajorAttention(nn.Module):
    def __init__(self, d_model, nhead):
        super().__init__()
        self.nhead = nhead
        self.d_head = d_model // nhead
        self.in_proj = nn.Linear(d_model, 3 * d_model)
        self.out_proj = nn.Linear(d_model, d_model)

    def forward(self, src):
        T, B, E = src.shape
        q, k, v = self.in_proj(src).chunk(3, dim=-1)
        q = q.reshape(T, B * self.nhead, self.d_head)
        k = k.reshape(T, B * self.nhead, self.d_head)
        v = v.reshape(T, B * self.nhead, self.d_head)
        scores = torch.einsum("tnd,snd->nts", q, k) / math.sqrt(self.d_head)
        weights = torch.softmax(scores, dim=-1)
        out = torch.einsum("nts,snd->tnd", weights, v).reshape(T, B, E)
        return self.out_proj(out)
