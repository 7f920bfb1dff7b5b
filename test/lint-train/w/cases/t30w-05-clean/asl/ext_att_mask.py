import torch
from torch import Tensor


def get_extended_attention_mask(attention_mask: Tensor, dtype) -> Tensor:
    """1/True where a frame may be attended -> additive (B, 1, 1, S): 0 there, dtype min elsewhere."""
    if attention_mask.dim() == 3:
        extended = attention_mask[:, None, :, :]
    elif attention_mask.dim() == 2:
        extended = attention_mask[:, None, None, :]
    else:
        raise ValueError(f"unexpected mask shape {tuple(attention_mask.shape)}")
    extended = extended.to(dtype=dtype)
    return (1.0 - extended) * torch.finfo(dtype).min
