import torch


def make_padding_mask(seq: torch.Tensor, pad_idx: int = 0) -> torch.Tensor:
    """[B, S] token ids -> [B, 1, 1, S] bool, True where the key is a PAD token (to be blocked)."""
    return (seq == pad_idx).unsqueeze(1).unsqueeze(2)


def make_causal_mask(seq_len: int, device=None) -> torch.Tensor:
    """[1, 1, S, S] bool, True strictly above the diagonal: the future positions to block."""
    future = torch.triu(torch.ones(seq_len, seq_len, dtype=torch.bool, device=device), diagonal=1)
    return future[None, None]


def make_tgt_mask(tgt: torch.Tensor, pad_idx: int = 0) -> torch.Tensor:
    # block a key if it is in the future OR if it is padding
    return torch.logical_or(make_causal_mask(tgt.size(1), tgt.device), make_padding_mask(tgt, pad_idx))
