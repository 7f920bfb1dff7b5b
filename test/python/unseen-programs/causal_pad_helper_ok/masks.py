import torch


def causal_padding_bias(attention_mask, dtype=torch.float32):
    """attention_mask: [B, T], 1 = token, 0 = right padding. Returns an additive bias [B, 1, T, T]."""
    T = attention_mask.size(1)
    causal = torch.ones(T, T, dtype=torch.bool).tril()
    allowed = causal[None, :, :] & attention_mask[:, None, :].bool()
    bias = torch.zeros(allowed.shape, dtype=dtype).masked_fill(~allowed, -1e9)
    return bias[:, None]
