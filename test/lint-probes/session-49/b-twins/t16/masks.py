import torch


def decode_mask(q_len, kv_len, device=None):
    offset = kv_len - q_len
    return torch.ones(q_len, kv_len, dtype=torch.bool, device=device).tril()
