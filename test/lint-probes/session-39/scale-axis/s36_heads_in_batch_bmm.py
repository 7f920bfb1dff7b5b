import numpy as np
import torch
import torch.nn as nn


class BatchedHeads(nn.Module):
    """Heads folded into the batch axis, bmm, then 1/sqrt(d_k) with numpy's sqrt."""

    def __init__(self, n_head, d_model, d_k):
        super().__init__()
        self.n_head, self.d_k = n_head, d_k
        self.w_qs = nn.Linear(d_model, n_head * d_k)
        self.w_ks = nn.Linear(d_model, n_head * d_k)
        self.w_vs = nn.Linear(d_model, n_head * d_k)

    def forward(self, q, k, v):
        sz_b, len_q, _ = q.size()
        len_k = k.size(1)
        q = self.w_qs(q).view(sz_b, len_q, self.n_head, self.d_k).permute(2, 0, 1, 3).reshape(-1, len_q, self.d_k)
        k = self.w_ks(k).view(sz_b, len_k, self.n_head, self.d_k).permute(2, 0, 1, 3).reshape(-1, len_k, self.d_k)
        v = self.w_vs(v).view(sz_b, len_k, self.n_head, self.d_k).permute(2, 0, 1, 3).reshape(-1, len_k, self.d_k)
        attn = torch.bmm(q, k.transpose(1, 2)) / np.sqrt(self.d_k)  # (n_head * B, len_q, len_k)
        attn = torch.softmax(attn, dim=2)
        return torch.bmm(attn, v)


model = BatchedHeads(n_head=8, d_model=512, d_k=64)
