import torch
from torch import Tensor


def _length_pad_mask(inputs: Tensor, lengths: Tensor) -> Tensor:
    """(batch, T) bool, True on the frames past each utterance's length."""
    mask = inputs.new_zeros(inputs.size()[:-1])
    for i in range(inputs.size(0)):
        mask[i, lengths[i]:] = 1
    return mask.bool()


def encoder_pad_mask(inputs: Tensor, lengths: Tensor, query_len: int) -> Tensor:
    """(batch, query_len, enc_T), True where the key frame is padding."""
    return _length_pad_mask(inputs, lengths).unsqueeze(1).repeat(1, query_len, 1)


def decoder_self_mask(targets: Tensor, pad_id: int = 0) -> Tensor:
    """(batch, T, T), True where the key is padding or in the future."""
    batch, length = targets.size()
    pad = targets.eq(pad_id).unsqueeze(1).repeat(1, length, 1)
    future = torch.triu(torch.ones((length, length), device=targets.device, dtype=torch.uint8), diagonal=1)
    future = future.unsqueeze(0).repeat(batch, 1, 1)
    return (pad + future).bool()
