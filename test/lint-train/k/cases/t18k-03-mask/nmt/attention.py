# case: t18k-03-mask
# modelled-on: FurkanAtass/Attention-PyTorch https://github.com/FurkanAtass/Attention-PyTorch/commit/a862b06e5fea9abb74385f8a8152c13c9804daf3
# label: buggy
# class: real-bug
# pattern: a from-scratch translation transformer: the scaled attention hides keys with masked_fill(mask == 0, -inf), a keep convention (1 = attend) that the padding masks built in model.py follow ((ids != pad) unsqueezed to (N, 1, 1, S)); the decoder's look-ahead mask is built in model.py as torch.triu(ones, diagonal=1).bool(), True on the future positions, and handed to the same attention
# why: buggy: the triu mask is True on future keys and False on the past and the diagonal, and the attention hides where the mask is 0, so every query attends to its future only; the last row is all False, all -inf, and its softmax is NaN; the fix commit (a862b06, "Refactor masking logic") replaced it with a tril keep mask ANDed with the padding mask. The cross-attention here gets the source padding mask (the real code of that commit passed the target's, fixed in the same commit; written correctly so that the polarity is the one defect)
# source: https://github.com/FurkanAtass/Attention-PyTorch https://github.com/FurkanAtass/Attention-PyTorch/commit/a862b06e5fea9abb74385f8a8152c13c9804daf3 model/layers/self_attention.py (parent 284aee9)
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
            scores = scores.masked_fill(mask == 0, float("-inf"))  # expect: ATT002
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
