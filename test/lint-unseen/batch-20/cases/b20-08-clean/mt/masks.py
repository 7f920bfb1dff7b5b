from typing import Optional

import torch


def create_padding_mask(sequence: torch.Tensor, pad_id: int) -> torch.Tensor:
    """Valid (non-padding) positions, [batch, 1, 1, length]."""
    if sequence.dim() != 2:
        raise ValueError("Padding mask expects input of shape [batch, length].")
    return sequence.ne(pad_id).unsqueeze(1).unsqueeze(2)


def create_causal_mask(size: int, device: Optional[torch.device] = None) -> torch.Tensor:
    """Lower triangular mask preventing attention to future positions."""
    return torch.tril(torch.ones(size, size, dtype=torch.bool, device=device)).unsqueeze(0).unsqueeze(0)


def create_decoder_mask(tgt: torch.Tensor, pad_id: int, device: Optional[torch.device] = None) -> torch.Tensor:
    return create_padding_mask(tgt, pad_id) & create_causal_mask(tgt.size(1), device=device)
