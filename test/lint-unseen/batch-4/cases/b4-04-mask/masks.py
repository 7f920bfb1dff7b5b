import numpy as np
import torch


def future_mask(tokens):
    """Mask for the decoder's self-attention over `tokens` (batch, length)."""
    assert tokens.dim() == 2
    shape = (1, tokens.size(1), tokens.size(1))
    lower = np.tril(np.ones(shape), k=0).astype("uint8")
    lower = torch.from_numpy(lower)
    if tokens.is_cuda:
        lower = lower.cuda()
    return lower
