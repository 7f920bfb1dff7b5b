# case: t44ee-17-clean
# modelled-on: maxtrem/qanet https://github.com/maxtrem/qanet/commit/308eb8fde0323c1dde441418d4749cdd524251f4
# label: correct
# class: clean
# pattern: QANet's encoder self-attention on channels-first tensors (B, D, L), with three interchangeable projection types: 1x1 convolutions split the channels into heads as `view(B, H, Dh, L).transpose(-2, -1)`, linear projections as `view(B, L, H, Dh).transpose(1, 2)`; the projected tuple is unpacked in the order (K, Q, V) and handed to `scaled(K, Q, V, mask)`, whose parameters are named (Q, K, V); the padding mask (1 at real tokens, built by the model) is viewed (B, 1, 1, L) and applied with a -1e30 blend before a softmax over the last axis; the encoder block (another file) passes the mask down
# why: correct: in self-attention both arguments are learned projections of the same input, so handing the key projection in the query slot and the query projection in the key slot only renames two learned weights; every layout change keeps the length axis where the product expects it; the mask is a keep mask over the keys, which the blend keeps, and -1e30 is a float32 fill
# looks-like: ATT002, ATT005, ATT007
# source: https://github.com/maxtrem/qanet https://github.com/maxtrem/qanet/commit/308eb8fde0323c1dde441418d4749cdd524251f4 modules/attn.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def blend_mask(target, mask):
    mask = mask.type(torch.float32)
    return target * mask + (1 - mask) * (-1e30)


class SelfHeads(nn.Module):
    def __init__(self, d_model, heads, p, proj_type=2):
        super().__init__()
        self.d_model, self.h, self.d_h, self.proj_type = d_model, heads, d_model // heads, proj_type
        if proj_type == 1:
            self.proj = nn.ModuleList([nn.Linear(d_model, d_model) for _ in range(4)])
        elif proj_type == 2:
            self.proj = nn.ModuleList([nn.Conv1d(d_model, d_model, kernel_size=1, bias=False) for _ in range(3)])
        self.drop = nn.Dropout(p)

    def scaled(self, Q, K, V, mask=None):
        logits = Q @ K.transpose(-2, -1) / math.sqrt(self.d_h)
        if mask is not None:
            dims = [x if x is not None else -1 for x in list(logits.size())]
            logits = blend_mask(logits, mask.view(dims[0], 1, 1, dims[-1]))
        return self.drop(F.softmax(logits, dim=-1)) @ V

    def project(self, x, i):
        return x if self.proj_type == 0 else self.proj[i](x)

    def forward(self, x, mask=None):
        if self.proj_type == 1:
            x = x.transpose(1, 2)
        b = x.shape[0]
        K, Q, V = (self.project(t, i) for i, t in enumerate((x, x, x)))
        if self.proj_type == 1:
            K = K.view(b, -1, self.h, self.d_h).transpose(1, 2)
            Q = Q.view(b, -1, self.h, self.d_h).transpose(1, 2)
            V = V.view(b, -1, self.h, self.d_h).transpose(1, 2)
            out = self.scaled(K, Q, V, mask)
            return self.project(out.reshape(b, -1, self.d_model), -1)
        Q = Q.view(b, self.h, self.d_h, -1).transpose(-2, -1)
        K = K.view(b, self.h, self.d_h, -1).transpose(-2, -1)
        V = V.view(b, self.h, self.d_h, -1).transpose(-2, -1)
        out = self.scaled(K, Q, V, mask).transpose(-2, -1)
        return out.reshape(b, self.d_model, -1)
