# case: t32y-04-clean
# modelled-on: ashtonjur/MachineTranslator https://github.com/ashtonjur/MachineTranslator/commit/450254f9f9f34887e2321dc7a11e3aa0ac3374db
# label: correct
# class: clean
# pattern: a student translator's scaled dot-product module: scores = matmul(query, key.transpose(-2, -1)) / sqrt(query.size(-1)), masked_fill(mask == 0, -1e9), softmax over dim=-1, matmul with the values; the weights are returned for inspection
# why: correct: the mask convention is 1 = keep, so == 0 picks the positions to remove; the scale is the square root of the (per-head) query width; the softmax is over the keys; -1e9 is a float32 fill
# looks-like: ATT002, ATT004, ATT007
# source: https://github.com/ashtonjur/MachineTranslator https://github.com/ashtonjur/MachineTranslator/commit/450254f9f9f34887e2321dc7a11e3aa0ac3374db ScaledDot.py
import math

import torch
import torch.nn as nn


class DotProductScorer(nn.Module):
    def forward(self, q, k, v, keep=None):
        scores = torch.matmul(q, k.transpose(-2, -1)) / math.sqrt(q.size(-1))
        if keep is not None:
            scores = scores.masked_fill(keep == 0, -1e9)
        weights = torch.softmax(scores, dim=-1)
        return torch.matmul(weights, v), weights
