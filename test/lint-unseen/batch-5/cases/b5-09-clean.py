# case: b5-09-clean
# modelled-on: Himanshu-2678/transformer-from-scratch https://github.com/Himanshu-2678/transformer-from-scratch/commit/b673a129f46a1ac2c513a033f790e795e57b4b9f
# label: correct
# class: clean
# pattern: a single-head scaled dot-product module on (B, T, d) tensors: a 0/1 keep mask of shape (B, T_k) or (B, T_q, T_k) is cast to bool and expanded, the scores are filled with finfo(dtype).min where it is False, and after the softmax over the keys the rows whose keys are all masked are set to zero with torch.where on the weights
# why: correct: the fill uses the inverted keep mask before the softmax; the torch.where after the softmax does not mask keys, it only zeroes the rows of queries that have no key at all (which would otherwise be uniform over padding), and it leaves every other row summing to 1
# looks-like: ATT002, ATT006, ATT007
# source: https://github.com/Himanshu-2678/transformer-from-scratch https://github.com/Himanshu-2678/transformer-from-scratch/commit/b673a129f46a1ac2c513a033f790e795e57b4b9f stage02_attention/attention.py
import math

import torch
import torch.nn as nn
import torch.nn.functional as F


class DotProductAttention(nn.Module):
    """Attention over given Q, K, V (no projections)."""

    def __init__(self, p_drop: float = 0.0):
        super().__init__()
        self.drop = nn.Dropout(p_drop)

    def forward(self, Q, K, V, keep=None):
        # Q: [B, T_q, d_k], K: [B, T_k, d_k], V: [B, T_k, d_v]
        assert Q.dim() == 3 and K.dim() == 3 and V.dim() == 3
        B, T_q, d_k = Q.shape
        T_k = K.shape[1]
        scores = Q @ K.transpose(-2, -1)  # [B, T_q, T_k]
        scores = scores / math.sqrt(d_k)
        if keep is not None:
            keep = keep.to(Q.device).bool()
            if keep.dim() == 2:
                # [B, T_k] -> [B, T_q, T_k]
                keep = keep.unsqueeze(1).expand(-1, T_q, -1)
            assert keep.shape[-1] == T_k
            scores = scores.masked_fill(~keep, torch.finfo(scores.dtype).min)
        weights = F.softmax(scores, dim=-1)
        if keep is not None:
            # queries with no visible key get zero weights instead of a uniform row
            empty = (keep.sum(dim=-1, keepdim=True) == 0).expand_as(weights)
            weights = torch.where(empty, torch.zeros_like(weights), weights)
        weights = self.drop(weights)
        return weights @ V, weights
