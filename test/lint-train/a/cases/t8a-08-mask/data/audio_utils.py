# case: t8a-08-mask
# modelled-on: earthspecies/avex https://github.com/earthspecies/avex/commit/95a0c81a3b9b02392ba40f87c2e1e838817f90a7
# label: correct
# class: fixed
# pattern: the same bioacoustics data utilities after the fix: pad_or_window builds the mask True on real audio and, with invert=True (the default), returns ~mask, so the collated "padding_mask" is True at padding, which is what the BEATs-style encoder's masked_fill(key_padding_mask, -inf) expects
# why: correct: the collated mask is True on padded samples only; after the frame reduction (all samples of a frame padded) the attention fills only padding keys, and a clip without padding has an all-False mask, so no row is fully masked
# looks-like: ATT002, ATT007
# source: https://github.com/earthspecies/avex https://github.com/earthspecies/avex/commit/95a0c81a3b9b02392ba40f87c2e1e838817f90a7 representation_learning/data/audio_utils.py
from typing import Literal, Tuple

import torch
import torch.nn.functional as F


def pad_or_window(
    wav: torch.Tensor, target_len: int, window: Literal["random", "center", "start"] = "random", invert: bool = True
) -> Tuple[torch.Tensor, torch.Tensor]:
    """Pad or crop a waveform to target_len samples. Returns (waveform, mask); with invert, True marks padding."""
    n = wav.size(-1)
    mask = torch.ones(target_len, dtype=torch.bool)
    out = wav
    if n > target_len:
        if window == "random":
            start = int(torch.randint(0, n - target_len + 1, ()).item())
        elif window == "center":
            start = (n - target_len) // 2
        else:
            start = 0
        out = wav[..., start : start + target_len]
    elif n < target_len:
        out = F.pad(wav, (0, target_len - n))
        mask[n:] = False
    if invert:
        mask = ~mask
    return out, mask
