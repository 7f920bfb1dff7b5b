from typing import Tuple

import torch


def create_masked_tensor(data: torch.Tensor, lengths: torch.Tensor) -> Tuple[torch.Tensor, torch.Tensor]:
    """Pads a batch of flattened variable-length sequences (right padding).

    data: (total, ...) the sequences one after another; lengths: (B,)
    Returns the padded tensor (B, S, ...) and a bool mask (B, S) where True indicates
    valid elements and False indicates padding.
    >>> create_masked_tensor(torch.tensor([1, 2, 3, 4, 5, 6]), torch.tensor([2, 3, 1]))[1]
    tensor([[ True,  True, False],
            [ True,  True,  True],
            [ True, False, False]])
    """
    max_len = int(lengths.max())
    batch_size = len(lengths)
    padded = torch.zeros((batch_size, max_len, *data.shape[1:]), dtype=data.dtype, device=data.device)
    padding_mask = torch.zeros((batch_size, max_len), dtype=torch.bool, device=data.device)
    start = 0
    for i, length in enumerate(lengths.tolist()):
        padded[i, :length] = data[start:start + length]
        padding_mask[i, :length] = True
        start += length
    return padded, padding_mask
