# case: t18k-04-fill
# modelled-on: FurkanAtass/Attention-PyTorch https://github.com/FurkanAtass/Attention-PyTorch/commit/3c4f8836b4890fed5dac39a17d43e68ae3ab20a8
# label: buggy
# class: real-bug
# pattern: the same translation transformer after its mask fix: the decoder mask is (tgt != pad).unsqueeze(1).unsqueeze(3) -- (N, 1, T, 1), the padding of the queries -- ANDed with a tril of ones, and the attention fills where it is 0 with float('-inf')
# why: buggy: every padded target position is a query row whose mask is all False, so its scores are all -inf and its softmax is NaN; the next layer multiplies the NaN values of those positions by exactly-zero weights (they are future keys for the real queries), 0 * NaN = NaN, and the loss becomes NaN on any batch with padding; the fix commit (3c4f883, "update self-attention mask fill value") changed the fill to -1e9, which gives padded rows a finite uniform distribution
# source: https://github.com/FurkanAtass/Attention-PyTorch https://github.com/FurkanAtass/Attention-PyTorch/commit/3c4f8836b4890fed5dac39a17d43e68ae3ab20a8 model/layers/self_attention.py (parent 579d1ca)
import torch
from torch import nn


class ScaledAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.softmax = nn.Softmax(-1)

    def forward(self, q, k, v, mask=None):
        d = q.size(-1)
        scores = torch.matmul(q, k.transpose(-2, -1)) / (d ** 0.5)
        if mask is not None:
            # positions where the mask is 0 get no attention
            scores = scores.masked_fill(mask == 0, float("-inf"))  # expect: ATT007
        weights = self.softmax(scores)
        return torch.matmul(weights, v)


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.h = num_heads
        self.d = d_model // num_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.wo = nn.Linear(d_model, d_model)
        self.attn = ScaledAttention()

    def split(self, x):
        b, t, _ = x.shape
        return x.view(b, t, self.h, self.d).transpose(1, 2)

    def forward(self, q, k, v, mask=None):
        b, t, _ = q.shape
        out = self.attn(self.split(self.wq(q)), self.split(self.wk(k)), self.split(self.wv(v)), mask)
        return self.wo(out.transpose(1, 2).reshape(b, t, self.h * self.d))
