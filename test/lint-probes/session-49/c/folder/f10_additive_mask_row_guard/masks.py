import torch


def key_padding_bias(lengths, max_len, dtype=torch.float32):
    """(B, 1, 1, S) additive bias: 0 at real keys, dtype-min at padding."""
    keep = torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None]
    bias = torch.zeros(keep.shape, dtype=dtype, device=lengths.device)
    bias = bias.masked_fill(~keep, torch.finfo(dtype).min)
    return bias[:, None, None, :]


def query_valid(lengths, max_len):
    return (torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None])[:, None, :, None]
