import torch


def bias_from_mask(attention_mask, dtype):
    # attention_mask: (B, S) 1 = token; returns (B, 1, 1, S): 0 at tokens, -10000 at padding
    m = attention_mask[:, None, None, :].to(dtype)
    return (m - 1.0) * 10000.0


def attend(q, k, v, ids, pad):
    s = q @ k.transpose(-2, -1) / q.size(-1) ** 0.5
    s = s + bias_from_mask((ids != pad).long(), s.dtype)
    return s.softmax(-1) @ v
