import math

import torch

OUT_INDEX = 0


def contrast(t: torch.Tensor, factor: float = 1.67) -> torch.Tensor:
    """Stretches a map around its mean."""
    m = t.mean(dim=-1)
    return (t - m) * factor + m


def attend(q, k, v, edit_map=False, is_cross=False, strength=1.0):
    """Scaled dot-product attention; optionally sharpens the output image's self-attention maps."""
    w = torch.softmax((q @ k.transpose(-2, -1) / math.sqrt(q.size(-1))), dim=-1)
    if edit_map and not is_cross:
        w[OUT_INDEX] = torch.stack(
            [torch.clip(contrast(w[OUT_INDEX][h], factor=strength), min=0.0, max=1.0) for h in range(w.shape[1])]
        )
    return w @ v, w
