# case: t19l-10-clean
# modelled-on: speedcell4/attention-pytorch https://github.com/speedcell4/attention-pytorch/commit/3c9013732a1bb6fe86f05f997e57aea61c552265
# label: correct
# class: clean
# pattern: a small attention library over arbitrary leading batch axes: dot-product attention scales Q @ K.transpose(-2, -1) by Q.size(-1) ** 0.5, fills the scores with -inf where the inverted validity mask (~mask, mask True = valid key) selects, through a helper in another module that views the (*batch, nom2) mask with singleton axes and expands it, and applies an nn.Softmax(dim=-1) built in __init__; multi-head attention projects with raw parameter matrices, splits heads with view(..., heads, -1), moves them in front of the position axis with transpose(-2, -3) and passes the same key mask down; a facet attention scores concatenated [q, k, |q - k|, q * k] features with an MLP and softmaxes over dim=-1
# why: correct: ~mask selects exactly the invalid keys, which are filled before the softmax over the key axis; the helper inserts the head and query axes so the (*batch, nom2) mask lines up with the key axis of (*batch, heads, nom1, nom2) scores; Q.size(-1) is read after the head split, so it is the per-head width; transpose(-2, -3) moves heads, the key transpose is transpose(-2, -1); masks are bool here (the 2018 original used uint8, whose ~ was a logical not in PyTorch 0.4)
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/speedcell4/attention-pytorch https://github.com/speedcell4/attention-pytorch/commit/3c9013732a1bb6fe86f05f997e57aea61c552265 attentions/multi_head.py, attentions/facet.py, utils.py
import torch
from torch import nn
from torch.nn import init

from attn.utils import broadcast_masked_fill


class DotProductAttention(nn.Module):
    def __init__(self):
        super().__init__()
        self.softmax = nn.Softmax(dim=-1)

    def forward(self, Q, K, V, mask=None):
        """Q (*batch, nom1, d), K (*batch, nom2, d), V (*batch, nom2, dv), mask (*batch, nom2) bool, True = valid."""
        A = Q @ K.transpose(-2, -1) / Q.size(-1) ** 0.5
        if mask is not None:
            A = broadcast_masked_fill(A, ~mask, value=-float("inf"))
        return self.softmax(A) @ V


class MultiHeadAttention(nn.Module):
    def __init__(self, num_heads, key_features, value_features, out_features=None):
        super().__init__()
        out_features = value_features if out_features is None else out_features
        assert out_features % num_heads == 0
        self.num_heads = num_heads
        self.attention = DotProductAttention()
        self.W = nn.Parameter(torch.empty(out_features, out_features))
        self.Wq = nn.Parameter(torch.empty(key_features, out_features))
        self.Wk = nn.Parameter(torch.empty(key_features, out_features))
        self.Wv = nn.Parameter(torch.empty(value_features, out_features))
        for p in (self.W, self.Wq, self.Wk, self.Wv):
            init.xavier_uniform_(p)

    def forward(self, Q, K, V, mask=None):
        Q = (Q @ self.Wq).view(*Q.size()[:-1], self.num_heads, -1)
        K = (K @ self.Wk).view(*K.size()[:-1], self.num_heads, -1)
        V = (V @ self.Wv).view(*V.size()[:-1], self.num_heads, -1)
        A = self.attention(Q.transpose(-2, -3), K.transpose(-2, -3), V.transpose(-2, -3), mask=mask).transpose(-2, -3)
        return A.contiguous().view(*A.size()[:-2], -1) @ self.W
