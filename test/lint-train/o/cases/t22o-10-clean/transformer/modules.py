# case: t22o-10-clean
# modelled-on: YangHan-Morningstar/Transformer-PyTorch https://github.com/YangHan-Morningstar/Transformer-PyTorch/commit/13b59d30ab68db54c8892edd18c0d1959e90e8b3
# label: correct
# class: clean
# pattern: a PyTorch port of the TensorFlow transformer tutorial: utils.py builds float masks that are 1.0 where attention is blocked, the padding mask as (seq == 0).float() and the look-ahead mask as (torch.triu(ones) == 0).transpose(0, 1).float(), combined for the decoder with torch.max; the attention adds mask * -1e9 to q @ k.permute(0, 1, 3, 2) / sqrt(depth) and softmaxes the last axis; the training step (train_step.py) passes the three masks by keyword
# why: correct: triu(ones) == 0 is the part strictly below the diagonal and its transpose the part strictly above it, the future, so the look-ahead mask is 1 on the future and 0 on the past and the diagonal; both masks mark blocked positions with 1, which is what mask * -1e9 expects, and max of the two blocks a key if either does; permute(0, 1, 3, 2) is the key transpose of a (batch, heads, len, depth) tensor
# looks-like: ATT002, ATT005, ATT006
# source: https://github.com/YangHan-Morningstar/Transformer-PyTorch https://github.com/YangHan-Morningstar/Transformer-PyTorch/commit/13b59d30ab68db54c8892edd18c0d1959e90e8b3 transformer/Modules.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class MultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0
        self.num_heads = num_heads
        self.d_model = d_model
        self.depth = d_model // num_heads
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)
        self.dense = nn.Linear(d_model, d_model)

    def split_heads(self, x, batch_size):
        x = torch.reshape(x, (batch_size, -1, self.num_heads, self.depth))
        return x.permute((0, 2, 1, 3))

    def forward(self, q, k, v, mask):
        batch_size = q.size()[0]
        q = self.split_heads(self.wq(q), batch_size)
        k = self.split_heads(self.wk(k), batch_size)
        v = self.split_heads(self.wv(v), batch_size)
        out, weights = self.scaled_dot_product_attention(q, k, v, mask)
        out = torch.reshape(out.permute((0, 2, 1, 3)), (batch_size, -1, self.d_model))
        return self.dense(out), weights

    def scaled_dot_product_attention(self, q, k, v, mask):
        matmul_qk = torch.matmul(q, k.permute(0, 1, 3, 2))
        logits = matmul_qk / math.sqrt(k.size()[-1])
        if mask is not None:
            logits += mask * -1e9
        weights = F.softmax(logits, dim=-1)
        return torch.matmul(weights, v), weights
