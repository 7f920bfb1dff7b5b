# case: b17-03-transpose
# modelled-on: DevAnnafi/Attention_From_Scratch https://github.com/DevAnnafi/Attention_From_Scratch/commit/5f88cdd75ec46e8c89b5ab2c64f7e01645c9686e
# label: buggy
# class: real-bug
# pattern: a from-scratch transformer: a functional attention written and tested on 2-D (seq, d) tensors computes q @ torch.transpose(k, 0, 1), divides by sqrt of q's last axis and softmaxes over the last axis; split_heads / merge_heads helpers reshape (B, S, d_model) into (B, H, S, d_k) and back; a MultiHeadAttention module in another file projects q, k, v, splits them into heads and calls the same function on the 4-D tensors
# why: buggy: on the (B, H, S, d_k) tensors from split_heads, transpose(k, 0, 1) swaps the batch and head axes instead of the key's sequence and feature axes, so q @ k^T is not the per-head score matrix (it fails when B != H and silently mixes batches and heads when B == H); the author's notes of the commit that added the module ("Bug 1 — Hardcoded Transpose Dimensions") describe exactly this and fix it with transpose(k, -2, -1)
# source: https://github.com/DevAnnafi/Attention_From_Scratch https://github.com/DevAnnafi/Attention_From_Scratch/commit/5f88cdd75ec46e8c89b5ab2c64f7e01645c9686e src/attention.py (and notes/mha.md)
import math

import torch


def attention(q, k, v, mask=None):
    # scores: q @ k^T
    scores = q @ torch.transpose(k, 0, 1)  # expect: ATT005
    d_k = q.shape[-1]
    scores = scores / math.sqrt(d_k)
    # normalise along the key axis
    weights = torch.softmax(scores, dim=-1)
    return weights @ v


def split_heads(x, num_heads):
    batch, seq, d_model = x.shape[0], x.shape[1], x.shape[2]
    d_k = d_model // num_heads
    return x.reshape(batch, seq, num_heads, d_k).transpose(1, 2)


def merge_heads(x):
    batch, heads, seq, d_k = x.shape
    return x.transpose(1, 2).contiguous().view(batch, seq, heads * d_k)
