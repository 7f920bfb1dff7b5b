import torch


def causal_mask(seq_len, device=None):
    # (S, S) lower triangle: 1 where a query may look, 0 for the future
    tri = torch.tril(torch.ones((seq_len, seq_len), device=device))
    # (1, 1, S, S): broadcast over the batch and the heads
    return tri.bool()[None, None, :, :]


def padding_mask(input_ids, pad_id=0):
    # (B, S): True for real tokens
    keep = input_ids != pad_id
    # only the key positions are masked; (B, 1, 1, S) broadcasts over the heads and the query positions
    return keep[:, None, None, :]


def combine(causal, padding):
    # (1, 1, S, S) & (B, 1, 1, S) -> (B, 1, S, S)
    return causal & padding
