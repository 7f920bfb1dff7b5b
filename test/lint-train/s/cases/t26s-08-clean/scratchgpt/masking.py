import torch


def apply_mask(attention_matrix: torch.Tensor) -> torch.Tensor:
    """Causal mask for (..., seq, seq) scores: True on and below the diagonal may be attended."""
    n = attention_matrix.shape[-1]
    keep = torch.tril(torch.ones(n, n, device=attention_matrix.device, dtype=torch.bool))
    # ~keep is True above the diagonal: those scores become -inf
    return attention_matrix.masked_fill(~keep, float("-inf"))
