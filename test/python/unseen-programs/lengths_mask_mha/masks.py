import torch


def sequence_mask(lengths, max_len=None):
    """[B, max_len] bool: True for positions inside each sequence."""
    max_len = max_len or int(lengths.max())
    return torch.arange(max_len, device=lengths.device)[None, :] < lengths[:, None]
