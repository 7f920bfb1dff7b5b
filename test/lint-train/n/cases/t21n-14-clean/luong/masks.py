import torch


def sequence_mask(sequence_length, max_len=None):
    """(batch,) lengths -> (batch, max_len) with 1 at the real positions."""
    if max_len is None:
        max_len = int(sequence_length.max())
    batch_size = sequence_length.size(0)
    seq_range = torch.arange(0, max_len).long().unsqueeze(0).expand(batch_size, max_len).to(sequence_length.device)
    return seq_range < sequence_length.unsqueeze(1).expand_as(seq_range)
