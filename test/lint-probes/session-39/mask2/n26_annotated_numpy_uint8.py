import numpy as np
import torch


def subsequent_mask(size):
    attn_shape = (1, size, size)
    m = np.triu(np.ones(attn_shape), k=1).astype("uint8")
    return torch.from_numpy(m) == 0


def attention(query, key, value, mask=None):
    scores = torch.matmul(query, key.transpose(-2, -1)) / query.size(-1) ** 0.5
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    return torch.matmul(torch.softmax(scores, dim=-1), value)


def decode(q, k, v):
    return attention(q, k, v, subsequent_mask(q.size(-2)))
