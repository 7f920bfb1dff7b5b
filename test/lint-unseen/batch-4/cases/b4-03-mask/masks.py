import numpy as np
import torch


def future_mask(tokens):
    """Mask for the decoder's self-attention over `tokens` (batch, length)."""
    assert tokens.dim() == 2
    shape = (tokens.size(0), tokens.size(1), tokens.size(1))
    upper = np.triu(np.ones(shape), k=1).astype("uint8")
    upper = torch.from_numpy(upper)
    if tokens.is_cuda:
        upper = upper.cuda()
    return upper
