# case: b6-18-fill
# modelled-on: VTongTV/bert-from-scratch https://github.com/VTongTV/bert-from-scratch/commit/4558325ad03cdf8a421cf94e26594254f0cfadbc
# label: buggy
# class: real-bug
# pattern: a BERT re-implementation split into small helpers: compute_attention_scores (Q K^T / sqrt(d_k)), apply_attention_mask (masked_fill(mask == 0, -1e9)), a multi-head module calling both before the softmax; the encoder in another module unsqueezes the (B, S) attention mask; the pre-training script has an --fp16 flag that runs the training step under torch.amp.autocast("cuda") with a GradScaler
# why: buggy: under CUDA autocast the Q K^T matmul is computed in float16, so the scores are a half tensor, and masked_fill with -1e9 raises "value cannot be converted to type at::Half without overflow" (float16's largest magnitude is 65504); every batch carries an attention mask, so --fp16 pre-training fails on the first step; a dtype-aware fill (torch.finfo(scores.dtype).min) or -1e4 is needed. No fix was found; the label rests on PyTorch's documented float16 range and autocast's float16 matmuls
# source: https://github.com/VTongTV/bert-from-scratch https://github.com/VTongTV/bert-from-scratch/commit/4558325ad03cdf8a421cf94e26594254f0cfadbc model/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def compute_attention_scores(Q, K):
    d_k = Q.size(-1)
    return torch.matmul(Q, K.transpose(-2, -1)) / math.sqrt(d_k)


def apply_attention_mask(scores, mask):
    return scores.masked_fill(mask == 0, -1e9)  # expect: ATT007


class MultiHeadAttention(nn.Module):
    def __init__(self, H, A, P_drop=0.1):
        super().__init__()
        self.A = A
        self.d_k = H // A
        self.W_Q = nn.Linear(H, H)
        self.W_K = nn.Linear(H, H)
        self.W_V = nn.Linear(H, H)
        self.W_O = nn.Linear(H, H)
        self.attn_dropout = nn.Dropout(P_drop)
        self.out_dropout = nn.Dropout(P_drop)

    def forward(self, x, mask=None):
        B, S, H = x.size()
        Q = self.W_Q(x).view(B, S, self.A, self.d_k).transpose(1, 2)  # (B, A, S, d_k)
        K = self.W_K(x).view(B, S, self.A, self.d_k).transpose(1, 2)
        V = self.W_V(x).view(B, S, self.A, self.d_k).transpose(1, 2)
        scores = compute_attention_scores(Q, K)  # (B, A, S, S)
        if mask is not None:
            scores = apply_attention_mask(scores, mask)
        attn_weights = self.attn_dropout(F.softmax(scores, dim=-1))
        context = torch.matmul(attn_weights, V).transpose(1, 2).contiguous().view(B, S, H)
        return self.out_dropout(self.W_O(context))
