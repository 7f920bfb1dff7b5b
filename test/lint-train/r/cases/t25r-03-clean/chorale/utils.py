import random

import numpy as np
import torch

PAD = 0
BOS = 1
EOS = 2


def set_seed(seed: int) -> None:
    random.seed(seed)
    np.random.seed(seed)
    torch.manual_seed(seed)


def subsequent_mask(size: int) -> torch.Tensor:
    """(size, size) additive causal mask: -inf above the diagonal, 0 elsewhere."""
    mask = torch.triu(torch.ones(size, size), diagonal=1)
    mask = mask.masked_fill(mask == 1, float("-inf"))
    return mask
