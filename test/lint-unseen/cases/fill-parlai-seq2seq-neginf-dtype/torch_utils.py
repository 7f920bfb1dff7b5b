"""Utility methods for dealing with torch code."""
import torch

NEAR_INF = 1e20
NEAR_INF_FP16 = 65504


def neginf(dtype: torch.dtype) -> float:
    """Return a representable finite number near -inf for a dtype."""
    if dtype is torch.float16:
        return -NEAR_INF_FP16
    else:
        return -NEAR_INF
