import torch


def keep_mask(padded, lengths=None, pad_id=None):
    """1.0 on real positions, 0.0 on padding."""
    if pad_id is not None:
        return padded.ne(pad_id).float()
    shape = padded.shape if padded.dim() == 2 else padded.shape[:-1]
    mask = padded.new_ones(shape)
    for i in range(shape[0]):
        mask[i, lengths[i]:] = 0
    return mask


def future_mask(batch, length, device):
    return torch.triu(torch.ones((batch, length, length), device=device, dtype=torch.uint8), diagonal=1)
