import torch


def generate_causal_mask(seq_len: int, device: str = "cpu") -> torch.Tensor:
    """A causal (lower triangular) mask of shape [1, 1, seq_len, seq_len]: 1 where a position may attend, 0 elsewhere."""
    mask = torch.tril(torch.ones((seq_len, seq_len), device=device))
    return mask.unsqueeze(0).unsqueeze(1)
