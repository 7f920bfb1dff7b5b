import torch
import torch.nn.functional as F


def batch_mask(lengths, S):
    m = torch.zeros(len(lengths), S, dtype=torch.bool)
    for i, n in enumerate(lengths):
        m[i, :n] = True
    return m


def attend(q, k, v, lengths):
    keep = batch_mask(lengths, k.size(-2))
    return F.scaled_dot_product_attention(q, k, v, attn_mask=keep[:, None, None, :])
