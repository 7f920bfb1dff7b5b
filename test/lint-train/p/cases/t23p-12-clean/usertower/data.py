import torch


def left_pad(seq, max_len):
    """Keeps the last max_len items and pads on the left; the mask is True on padding."""
    seq = seq[-max_len:]
    pad_len = max_len - len(seq)
    ids = [0] * pad_len + list(seq)
    padding_mask = [True] * pad_len + [False] * len(seq)
    return torch.tensor(ids, dtype=torch.long), torch.tensor(padding_mask, dtype=torch.bool)
