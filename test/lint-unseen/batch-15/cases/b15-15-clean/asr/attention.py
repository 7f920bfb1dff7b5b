# case: b15-15-clean
# modelled-on: upskyy/Speech-Transformer https://github.com/upskyy/Speech-Transformer/commit/c71b002c385bf370c15f0a93a2a49a32c621c3a4
# label: correct
# class: clean
# pattern: the same speech-recognition transformer at its initial commit: boolean masks True where attention is forbidden (frames past each utterance's length; padding tokens plus triu(ones, 1) for the decoder), heads folded into the batch with permute + view and the mask repeated per head, and the scaled dot-product module assigning attn_distribution = attn_distribution.masked_fill(mask, -np.inf) before the softmax
# why: correct: the masks are True exactly on padding and future positions, masked_fill writes -inf there and the result is kept; every query keeps at least one visible key (its own position, or the real frames), so no row is all -inf; mask.repeat(num_heads, 1, 1) matches the head-major order produced by permute(2, 0, 1, 3) + view; this is the version before the commit that dropped the assignment (not a fix pair)
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/upskyy/Speech-Transformer https://github.com/upskyy/Speech-Transformer/commit/c71b002c385bf370c15f0a93a2a49a32c621c3a4 speech_transformer/attention.py
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
            scores = scores.masked_fill(mask, -np.inf)

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
