import math
import torch
import torch.nn.functional as F


def attention(query, key, value, mask=None):
    # query: (B, T, d), key/value: (B, S, d)
    scores = torch.bmm(query, key.transpose(1, 2)) / math.sqrt(query.size(2))  # (B, T, S)
    if mask is not None:
        scores = scores.masked_fill(mask.unsqueeze(1) == 0, -1e9)
    p = F.softmax(scores, dim=2)
    return torch.bmm(p, value), p
