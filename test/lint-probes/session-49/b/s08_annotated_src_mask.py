import math
import torch


def attention(query, key, value, mask=None):
    d_k = query.size(-1)
    scores = torch.matmul(query, key.transpose(-2, -1)) / math.sqrt(d_k)
    if mask is not None:
        scores = scores.masked_fill(mask == 0, -1e9)
    return torch.matmul(scores.softmax(dim=-1), value)


def subsequent(size):
    return torch.triu(torch.ones(1, size, size), diagonal=1).type(torch.uint8) == 0


def make_masks(src, tgt, pad=0):
    src_mask = (src != pad).unsqueeze(-2)
    tgt_mask = (tgt != pad).unsqueeze(-2) & subsequent(tgt.size(-1))
    return src_mask, tgt_mask


def step(q, k, v, src, tgt):
    src_mask, tgt_mask = make_masks(src, tgt)
    return attention(q, k, v, tgt_mask.unsqueeze(1)), attention(q, k, v, src_mask.unsqueeze(1))
