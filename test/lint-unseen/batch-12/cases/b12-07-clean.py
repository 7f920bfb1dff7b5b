# case: b12-07-clean
# modelled-on: thunlp/FewRel https://github.com/thunlp/FewRel/commit/278a2315d2138810a379cd8d5718914dc56e2582
# label: correct
# class: clean
# pattern: a SNAIL few-shot classifier's attention block: keys, queries and values from Linear layers on (batch, seq, dims), a lower-triangular 0/1 float mask built with NumPy in __init__ and kept as a frozen Parameter, logits blended as mask * (q @ k^T / sqrt(k_size)) + minus * (1 - mask) with minus = -100, softmax over axis 2 of the 3-D logits, and the read vectors concatenated to the input
# why: correct: the blend keeps the scaled logits where the tril mask is 1 (the current and earlier examples) and writes exactly -100 where it is 0 (later examples), which a softmax turns into weights of about e^-100 relative to the kept logits (scaled dot products of small projections); the mask always keeps the diagonal, so no row is all masked; the scale is sqrt of the key width; axis 2 of (batch, query, key) logits is the key axis and keys.transpose(2, 1) swaps the last two axes of 3-D keys; what a naive linter could misread: ATT006 (a 0/1 mask multiplied into the scores), ATT007 (a finite -100 fill), ATT002 (1 - mask), ATT001 (softmax over axis 2), ATT005 (transpose(2, 1))
# looks-like: ATT001, ATT002, ATT005, ATT006, ATT007
# source: https://github.com/thunlp/FewRel https://github.com/thunlp/FewRel/commit/278a2315d2138810a379cd8d5718914dc56e2582 models/snail.py
import numpy as np
import torch
from torch import nn
from torch.nn import functional as F


class CausalReadBlock(nn.Module):
    def __init__(self, dims: int, k_size: int, v_size: int, seq_len: int):
        super().__init__()
        self.key_layer = nn.Linear(dims, k_size)
        self.query_layer = nn.Linear(dims, k_size)
        self.value_layer = nn.Linear(dims, v_size)
        self.sqrt_k = np.sqrt(k_size)
        tri = np.tril(np.ones((seq_len, seq_len))).astype(np.float32)
        self.mask = nn.Parameter(torch.from_numpy(tri), requires_grad=False)
        self.minus = -100.0
        self._dim = dims + v_size

    def forward(self, batch, current_len: int):
        keys = self.key_layer(batch)
        queries = self.query_layer(batch)
        values = self.value_layer(batch)
        m = self.mask[:current_len, :current_len]
        logits = m * torch.div(torch.bmm(queries, keys.transpose(2, 1)), self.sqrt_k) + self.minus * (1.0 - m)
        probs = F.softmax(logits, 2)
        read = torch.bmm(probs, values)
        return torch.cat([batch, read], dim=2)

    @property
    def dim(self):
        return self._dim


class FewShotSequenceModel(nn.Module):
    def __init__(self, hidden: int, n_way: int, k_shot: int):
        super().__init__()
        self.seq_len = n_way * k_shot + 1
        self.att0 = CausalReadBlock(hidden + n_way, 64, 32, self.seq_len)
        self.att1 = CausalReadBlock(self.att0.dim, 256, 128, self.seq_len)
        self.disc = nn.Linear(self.att1.dim, n_way, bias=False)

    def forward(self, support_and_query):
        x = self.att0(support_and_query, self.seq_len)
        x = self.att1(x, self.seq_len)
        return self.disc(x[:, -1, :])
