import torch


def future_keep_mask(seq_len: int) -> torch.Tensor:
    """(seq_len, seq_len) mask: True for every allowed connection, False for the future.

    The attention sets every logit whose mask entry is False (0) to -inf.
    """
    upper = torch.triu(torch.full((seq_len, seq_len), 1), diagonal=1)
    return upper == 0


def padding_keep_mask(token_ids: torch.Tensor, pad_id: int) -> torch.Tensor:
    """(N, S): True on real tokens."""
    return token_ids != pad_id
