import torch
import torch.nn.functional as F


def encode(q, k, v, input_ids, pad_id):
    """The first token is BOS and never padding, so no row loses every key."""
    pad = input_ids == pad_id  # (B, T)
    pad[:, 0] = False
    query_pad = pad[:, None, :, None]
    key_pad = pad[:, None, None, :]
    s = q @ k.transpose(-2, -1) / q.shape[-1] ** 0.5
    s = s.masked_fill(key_pad, float("-inf"))
    w = F.softmax(s, dim=-1).masked_fill(query_pad, 0.0)
    return w @ v
