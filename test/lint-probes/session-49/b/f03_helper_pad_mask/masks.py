import torch


def make_pad_mask(lengths, max_len=None):
    """True at padded frames."""
    max_len = max_len or int(lengths.max())
    seq = torch.arange(max_len, device=lengths.device)
    return seq.unsqueeze(0) >= lengths.unsqueeze(1)
