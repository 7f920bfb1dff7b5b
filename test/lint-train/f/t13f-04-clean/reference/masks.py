import torch


def make_padding_mask(tokens: torch.Tensor, pad_token_id: int = 0) -> torch.Tensor:
    """True at padding positions (positions to ignore)."""
    return tokens.eq(pad_token_id)


def make_causal_mask(n: int, device=None) -> torch.Tensor:
    """True strictly above the diagonal (future positions to ignore)."""
    return torch.triu(torch.ones(n, n, dtype=torch.bool, device=device), diagonal=1)
