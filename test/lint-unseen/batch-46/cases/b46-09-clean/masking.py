import torch


def key_padding(ids: torch.Tensor, pad_id: int = 0) -> torch.Tensor:
    """(B, S) ids -> (B, 1, 1, S) float mask, 1.0 = real token to attend, 0.0 = padding."""
    return (ids != pad_id)[:, None, None, :].float()


def no_peek(length: int) -> torch.Tensor:
    """(L, L) lower triangle: 1.0 = visible (same or earlier position), 0.0 = future."""
    return torch.tril(torch.ones(length, length))


def target_mask(tgt_ids: torch.Tensor, pad_id: int = 0) -> torch.Tensor:
    """Padding and look-ahead together: (B, 1, L, L), 1.0 only where both allow attention."""
    pad = key_padding(tgt_ids, pad_id)
    tri = no_peek(tgt_ids.size(1)).to(tgt_ids.device)
    return torch.minimum(pad, tri)
