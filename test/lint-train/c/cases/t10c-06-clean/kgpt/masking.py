import torch


def causal_mask(seq_len: int, *, device=None) -> torch.Tensor:
    """(1, 1, T, T) keep mask: True where a query may attend."""
    return torch.tril(torch.ones((seq_len, seq_len), dtype=torch.bool, device=device)).view(1, 1, seq_len, seq_len)


def causal_mask_for_cache(*, query_length: int, key_length: int, device=None) -> torch.Tensor:
    """(1, 1, Tq, Tk) keep mask for queries that follow key_length - query_length cached keys."""
    past = key_length - query_length
    if past < 0:
        raise ValueError("key_length must be >= query_length")
    q_pos = torch.arange(past, past + query_length, device=device).view(query_length, 1)
    k_pos = torch.arange(key_length, device=device).view(1, key_length)
    return (k_pos <= q_pos).view(1, 1, query_length, key_length)
