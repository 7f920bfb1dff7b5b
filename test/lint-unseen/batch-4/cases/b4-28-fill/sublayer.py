# case: b4-28-fill
# modelled-on: rickysrcheng/transformer-pytorch https://github.com/rickysrcheng/transformer-pytorch/commit/060b87307abedf01f554b200a5a5ae0123a890c6
# label: buggy
# class: real-bug
# pattern: a from-scratch translation transformer: mask.py builds keep masks (tokens != PAD_IDX, and the transposed triu(ones == 1), i.e. a lower triangle, combined with &); the training loop builds them per batch and the multi-head attention, after adding a head axis, fills the scaled scores where `mask == 0` before a softmax over the last axis
# why: the fill value is -1e-15, a tiny negative number instead of a large one, so the masked scores become about 0 and the padding and future tokens keep a weight comparable to the real ones; commit 060b873 ("masking wasn't masking") changes it to -1e15
# source: https://github.com/rickysrcheng/transformer-pytorch https://github.com/rickysrcheng/transformer-pytorch/commit/060b87307abedf01f554b200a5a5ae0123a890c6 sublayer.py
import numpy as np
import torch
import torch.nn.functional as F
from torch import nn

from mask import padding_mask, target_mask


class HeadsAttention(nn.Module):
    def __init__(self, num_heads=8, d_model=512):
        super().__init__()
        assert d_model % num_heads == 0
        self.d_model = d_model
        self.h = num_heads
        self.d_k = d_model // num_heads
        self.wq = nn.Linear(d_model, d_model, bias=False)
        self.wk = nn.Linear(d_model, d_model, bias=False)
        self.wv = nn.Linear(d_model, d_model, bias=False)
        self.out = nn.Linear(d_model, d_model)

    def attend(self, Q, K, V, mask=None):
        score = torch.matmul(Q, torch.transpose(K, -2, -1)) / np.sqrt(self.d_k)
        if mask is not None:
            score = score.masked_fill(mask == 0, -1e-15)  # expect: ATT007
        weights = F.softmax(score, dim=-1)
        return torch.matmul(weights, V), weights

    def forward(self, q, k, v, mask=None):
        if mask is not None:
            mask = mask.unsqueeze(1)  # same mask for every head
        b, lq, lk = q.size(0), q.size(1), k.size(1)
        Q = self.wq(q).view(b, lq, self.h, self.d_k).transpose(1, 2)
        K = self.wk(k).view(b, lk, self.h, self.d_k).transpose(1, 2)
        V = self.wv(v).view(b, lk, self.h, self.d_k).transpose(1, 2)
        Z, attn = self.attend(Q, K, V, mask)
        Z = Z.transpose(1, 2).reshape(b, lq, self.d_model)
        return self.out(Z), attn


def train_step(model, src, tgt, loss_fn):
    tgt_in, tgt_out = tgt[:, :-1], tgt[:, 1:]
    logits = model(src, padding_mask(src), tgt_in, target_mask(tgt_in))
    return loss_fn(logits.reshape(-1, logits.size(-1)), tgt_out.reshape(-1))
