from typing import Optional, Union

import torch
from torch import Tensor


def causal_float_mask(size: int, device: Union[str, torch.device, None] = None) -> Tensor:
    """(size, size) additive mask: 0.0 on and below the diagonal, -inf above it (future tokens)."""
    allowed = (torch.triu(torch.ones(size, size, device=device)) == 1).transpose(0, 1)
    return allowed.float().masked_fill(allowed == 0, float("-inf")).masked_fill(allowed == 1, 0.0)


def lengths_to_keep(lengths: Tensor, max_len: Optional[int], include_end: bool = False) -> Tensor:
    """(bsize,) lengths -> (bsize, max_len) bool, True on the real (non-padded) steps."""
    if max_len is None:
        max_len = int(lengths.max().item())
    steps = torch.arange(0, max_len, device=lengths.device)
    lengths = lengths.unsqueeze(-1)
    return steps <= lengths if include_end else steps < lengths


def lengths_to_padding(lengths: Tensor, max_len: Optional[int], include_end: bool = True) -> Tensor:
    """(bsize,) lengths -> (bsize, max_len) bool, True on the padded steps."""
    return lengths_to_keep(lengths, max_len, not include_end).logical_not()


def tokens_to_padding(tokens: Tensor, pad_value: int) -> Tensor:
    """True where the token is the padding id."""
    return tokens.ne(pad_value).logical_not()
