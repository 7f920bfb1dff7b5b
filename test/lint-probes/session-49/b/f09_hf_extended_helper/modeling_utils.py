import torch


def get_extended_attention_mask(attention_mask, dtype):
    ext = attention_mask[:, None, None, :].to(dtype=dtype)
    return (1.0 - ext) * torch.finfo(dtype).min
