# case: b4-26-softmax
# modelled-on: wonjun-dev/Transformer-Pytorch https://github.com/wonjun-dev/Transformer-Pytorch/commit/d2663d6c4e80c576242d4afe330781739f2dec38
# label: buggy
# class: real-bug
# pattern: the first scaled dot-product attention of a from-scratch transformer: Q, K, V are (N, S, E), the scores Q @ K.transpose(2, 1) are divided by sqrt(E), and the softmax is computed on the scores flattened to (N, S * S) over dim=1, then viewed back as (N, S, S), before the weighted sum of V
# why: flattening the (S, S) score matrix and normalising over dim=1 makes all S * S weights of an example sum to 1 together, so each query's weights over the keys no longer sum to 1 (they sum to about 1/S); commit d2663d6 ("Fix self attention") takes the softmax over dim=-1 of the unflattened scores
# source: https://github.com/wonjun-dev/Transformer-Pytorch https://github.com/wonjun-dev/Transformer-Pytorch/commit/d2663d6c4e80c576242d4afe330781739f2dec38 attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


def scaled_attention(Q, K, V):
    # Q, K, V: (N, S, E) -> (N, S, E)
    scale = math.sqrt(K.size()[-1])
    weights = torch.matmul(Q, K.transpose(2, 1).contiguous()) / scale  # (N, S, S)
    probs = F.softmax(weights.reshape(weights.size(0), -1), dim=1).view_as(weights)  # expect: ATT001
    return torch.matmul(probs, V)


class SelfAttentionLayer(nn.Module):
    def __init__(self, d_model):
        super().__init__()
        self.wq = nn.Linear(d_model, d_model)
        self.wk = nn.Linear(d_model, d_model)
        self.wv = nn.Linear(d_model, d_model)

    def forward(self, x):
        return scaled_attention(self.wq(x), self.wk(x), self.wv(x))
