"""Masks for the transformer: 1 marks a position to hide, 0 a position to keep."""
import torch


def create_padding_mask(seq: torch.Tensor, pad_idx: int = 0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    """1 at padding, 0 at real tokens: [batch, seq_len] -> [batch, 1, 1, seq_len]."""
    mask = (seq == pad_idx).to(dtype)
    return mask.unsqueeze(1).unsqueeze(2)


def create_look_ahead_mask(size: int, dtype: torch.dtype = torch.float32, device=None) -> torch.Tensor:
    """Upper triangle above the diagonal is 1 (future), [1, 1, size, size]."""
    mask = torch.triu(torch.ones(size, size, dtype=dtype, device=device), diagonal=1)
    return mask.unsqueeze(0).unsqueeze(0)


def create_combined_mask(seq: torch.Tensor, pad_idx: int = 0, dtype: torch.dtype = torch.float32) -> torch.Tensor:
    look_ahead = create_look_ahead_mask(seq.size(1), dtype, seq.device)
    padding = create_padding_mask(seq, pad_idx, dtype)
    return torch.maximum(look_ahead, padding)
