import torch
import torch.nn.functional as F


def lengths_bias(lengths, S, dtype):
    valid = torch.arange(S, device=lengths.device)[None, :] < lengths[:, None]
    zero = torch.zeros((), dtype=dtype)
    neg = torch.tensor(float("-inf"), dtype=dtype)
    return torch.where(valid, zero, neg)[:, None, None, :]


def forward(q, k, v, lengths):
    bias = lengths_bias(lengths, k.size(-2), q.dtype)
    return F.scaled_dot_product_attention(q, k, v, attn_mask=bias)
