import torch


def attention_bias(keep, dtype):
    # keep: (B, S) bool True at tokens -> (B, 1, 1, S) additive
    bias = torch.zeros(keep.shape, dtype=dtype, device=keep.device)
    bias.masked_fill_(~keep, float("-inf"))
    return bias[:, None, None, :]


def attend(q, k, v, ids, pad):
    s = q @ k.transpose(-2, -1) * q.size(-1) ** -0.5
    s = s + attention_bias(ids != pad, s.dtype)
    return s.softmax(-1) @ v
