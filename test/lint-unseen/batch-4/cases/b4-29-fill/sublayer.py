# case: b4-29-fill
# modelled-on: rickysrcheng/transformer-pytorch https://github.com/rickysrcheng/transformer-pytorch/commit/060b87307abedf01f554b200a5a5ae0123a890c6
# label: correct
# class: fixed
# pattern: the same translation transformer after the fix: keep masks from mask.py (tokens != PAD_IDX; a lower triangle from the transposed triu) and a multi-head attention that fills `mask == 0` with -1e15 before the softmax over the keys; the model runs in float32
# why: correct: the positions where the keep mask is 0 get a large negative logit, which float32 represents
# looks-like: ATT002, ATT005, ATT007
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
            score = score.masked_fill(mask == 0, -1e15)
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
