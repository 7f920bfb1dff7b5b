# case: b9-08-scale
# modelled-on: Charmaineem/Hands-On-LLMs https://github.com/Charmaineem/Hands-On-LLMs/commit/6371e45cf1b349b4f973d66e1a42a9528e77a2b5
# label: buggy
# class: real-bug
# pattern: the first layer of a hands-on transformer project: a "Scaled Dot Product Attention" module that takes batched q, k, v, multiplies q with the keys transposed on their last two axes, divides by math.sqrt(d_k) and softmaxes over the last axis
# why: buggy: d_k is taken as k.dim(), the number of axes of the key tensor (3 or 4), not its feature width k.size(-1), so the scores are divided by sqrt(3) or sqrt(4) whatever the head width; the module's own comment and name say scaled dot-product attention, softmax(Q K^T / sqrt(d_k)) V; no fix was found
# source: https://github.com/Charmaineem/Hands-On-LLMs https://github.com/Charmaineem/Hands-On-LLMs/commit/6371e45cf1b349b4f973d66e1a42a9528e77a2b5 Transformer/layers.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


# Scaled dot-product attention: softmax(Q K^T / sqrt(d_k)) V
class Attention(nn.Module):
    def __init__(self):
        super(Attention, self).__init__()

    def forward(self, q, k, v):
        d_k = k.dim()
        dot = torch.matmul(q, k.transpose(-2, -1))
        s = F.softmax(dot / math.sqrt(d_k), dim=-1)  # expect: ATT004
        return torch.matmul(s, v)


if __name__ == "__main__":
    q = torch.randn(2, 4, 10, 16)  # (batch, heads, tokens, head_dim)
    out = Attention()(q, q, q)
    print(out.shape)
