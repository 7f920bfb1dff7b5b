import torch
from torch import Tensor


def make_src_mask(src: Tensor, pad_idx: int) -> Tensor:
    """(batch, 1, 1, src_len): True/1 on real tokens, 0 on padding."""
    return (src != pad_idx).unsqueeze(1).unsqueeze(2)


def make_tgt_mask(tgt: Tensor, pad_idx: int) -> Tensor:
    """(batch, 1, tgt_len, tgt_len): a position is valid only if it is not padding and not in the future."""
    tgt_len = tgt.size(1)
    causal = torch.tril(torch.ones(tgt_len, tgt_len, device=tgt.device)).bool()
    pad = (tgt != pad_idx).unsqueeze(1).unsqueeze(2)
    return causal.unsqueeze(0) & pad
