# case: b43-09-clean
# modelled-on: ianMuchesia/multihead-attention-core https://github.com/ianMuchesia/multihead-attention-core/commit/3bbfa2bbdc3cc1824928e8dc85cd75fc853ccc24
# label: correct
# class: clean
# pattern: a multi-head attention written as small methods, each one step: project Q, K, V; split heads with reshape(b, n, h, d).transpose(1, 2); score with Q @ K.transpose(-2, -1) divided by sqrt(K.shape[-1]) in one method; apply an optional boolean mask with masked_fill(mask, -1e9) in another (True = blocked); softmax(dim=-1) and the weighted sum of V in a third; merge heads; a small analysis script loads trained weights and plots the per-head attention maps of random inputs, passing no mask
# why: correct: the scale reads the per-head width from the split keys (K.shape[-1] = head_dims); masked_fill fills where the mask is True, so a boolean mask passed here means True = blocked, the convention of masked_fill and of nn.MultiheadAttention's boolean masks (no caller passes one); -1e9 masks in fp32; the steps are split across methods but run in the usual order (scale, mask, softmax)
# looks-like: ATT002, ATT003, ATT006, ATT007
# source: https://github.com/ianMuchesia/multihead-attention-core https://github.com/ianMuchesia/multihead-attention-core/commit/3bbfa2bbdc3cc1824928e8dc85cd75fc853ccc24 src/multihead_attention.py
import math

import torch
from torch import nn


class StepwiseMultiHeadAttention(nn.Module):
    def __init__(self, d_model, num_heads):
        super().__init__()
        assert d_model % num_heads == 0, "d_model must be divisible by num_heads"
        self.num_heads = num_heads
        self.head_dims = d_model // num_heads
        self.proj_q = nn.Linear(d_model, d_model)
        self.proj_k = nn.Linear(d_model, d_model)
        self.proj_v = nn.Linear(d_model, d_model)
        self.proj_out = nn.Linear(d_model, d_model)

    def heads(self, t):
        return t.reshape(t.size(0), t.size(1), self.num_heads, self.head_dims).transpose(1, 2)

    def qkv(self, query_in, key_in, value_in):
        return self.heads(self.proj_q(query_in)), self.heads(self.proj_k(key_in)), self.heads(self.proj_v(value_in))

    def raw_scores(self, Q, K):
        s = Q @ K.transpose(-2, -1)
        return s / math.sqrt(K.shape[-1])

    def block(self, scores, mask):
        if mask is None:
            return scores
        return scores.masked_fill(mask, -1e9)

    def mix(self, scores, V):
        weights = torch.softmax(scores, dim=-1)
        return weights @ V, weights

    def merge(self, out):
        out = out.transpose(1, 2)
        return self.proj_out(out.reshape(out.size(0), out.size(1), -1))

    def forward(self, q, k, v, mask=None):
        Q, K, V = self.qkv(q, k, v)
        scores = self.block(self.raw_scores(Q, K), mask)
        out, weights = self.mix(scores, V)
        return self.merge(out), weights


def head_maps(weights_by_heads, seq_len=10, d_model=128, device="cpu"):
    x = torch.randn(1, seq_len, d_model, device=device)
    maps = {}
    for num_heads, path in weights_by_heads.items():
        model = StepwiseMultiHeadAttention(d_model, num_heads).to(device)
        model.load_state_dict(torch.load(path, map_location="cpu"))
        model.eval()
        with torch.no_grad():
            _, weights = model(x, x, x)
        maps[num_heads] = weights[-1].cpu().numpy()
    return maps
