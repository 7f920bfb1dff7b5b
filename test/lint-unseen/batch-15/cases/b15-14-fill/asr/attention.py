# case: b15-14-fill
# modelled-on: upskyy/Speech-Transformer https://github.com/upskyy/Speech-Transformer/commit/28a0b1eb01f8f2e4ebc1f9e61ae1040af3736e76
# label: buggy
# class: real-bug
# pattern: a speech-recognition transformer; a mask module builds boolean masks that are True where attention is forbidden (frames past each utterance's length for cross-attention, padding tokens plus triu(ones, 1) for the decoder's self-attention); the multi-head layer folds heads into the batch (head-major) with permute + view, repeats the mask per head, and the scaled dot-product module divides bmm(query, key^T) by sqrt(key_dim) and, under "if mask is not None", calls attn_distribution.masked_fill(mask, -np.inf) as a statement of its own before the softmax
# why: buggy: Tensor.masked_fill is out of place; its result is dropped, so nothing is masked: the decoder's self-attention sees future tokens and every layer attends to padded frames and tokens; the initial commit assigned the result (attn_distribution = attn_distribution.masked_fill(...)), and the commit "Update attention.py" turned it into the bare call that is still in the repository; the masks' polarity (True = hidden) and the -inf fill are right (no row is fully masked)
# source: https://github.com/upskyy/Speech-Transformer https://github.com/upskyy/Speech-Transformer/commit/28a0b1eb01f8f2e4ebc1f9e61ae1040af3736e76 speech_transformer/attention.py
import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F


class DotAttention(nn.Module):
    def __init__(self, key_dim):
        super().__init__()
        self.sqrt_key_dim = np.sqrt(key_dim)

    def forward(self, query, key, value, mask=None):
        key = key.transpose(1, 2)  # (batch, dim, k_len)
        scores = torch.bmm(query, key) / self.sqrt_key_dim

        if mask is not None:
            scores.masked_fill(mask, -np.inf)  # expect: ATT007

        weights = F.softmax(scores, dim=-1)
        return torch.bmm(weights, value), weights


class HeadsAttention(nn.Module):
    def __init__(self, model_dim, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.head_dim = model_dim // num_heads
        self.dot = DotAttention(self.head_dim)
        self.q_fc = nn.Linear(model_dim, num_heads * self.head_dim)
        self.k_fc = nn.Linear(model_dim, num_heads * self.head_dim)
        self.v_fc = nn.Linear(model_dim, num_heads * self.head_dim)

    def fold(self, x, batch):
        x = x.view(batch, -1, self.num_heads, self.head_dim)
        return x.permute(2, 0, 1, 3).contiguous().view(self.num_heads * batch, -1, self.head_dim)  # head-major

    def forward(self, query, key, value, mask=None):
        batch = query.size(0)
        q = self.fold(self.q_fc(query), batch)
        k = self.fold(self.k_fc(key), batch)
        v = self.fold(self.v_fc(value), batch)
        if mask is not None:
            mask = mask.repeat(self.num_heads, 1, 1)
        ctx, weights = self.dot(q, k, v, mask)
        ctx = ctx.view(self.num_heads, batch, -1, self.head_dim)
        ctx = ctx.permute(1, 2, 0, 3).contiguous().view(batch, -1, self.num_heads * self.head_dim)
        return ctx, weights
