# case: t8a-07-mask
# modelled-on: earthspecies/avex https://github.com/earthspecies/avex/commit/95a0c81a3b9b02392ba40f87c2e1e838817f90a7
# label: buggy
# class: real-bug
# pattern: a bioacoustics representation-learning repo: the data utilities pad or crop each waveform and return a sample-level mask that is True on real audio; the collate function stacks it as the batch's "padding_mask"; a BEATs-style encoder (another module) reduces it to frames and hands it to a fairseq-style attention that fills masked_fill(key_padding_mask, -inf), i.e. expects True at padding
# why: buggy (fixed in PR #26 "beats and aves expect the inverse mask"): the mask is True where the audio is, but the encoder's key_padding_mask means True = padding, so every real frame is filled with -inf and the softmax attends to the padding only (a clip with no padding gets an all -inf row); the fix adds invert=True and returns ~mask
# source: https://github.com/earthspecies/avex https://github.com/earthspecies/avex/pull/26 representation_learning/data/audio_utils.py
from typing import Literal, Tuple

import torch
import torch.nn.functional as F


def pad_or_window(wav: torch.Tensor, target_len: int, window: Literal["random", "center", "start"] = "random") -> Tuple[torch.Tensor, torch.Tensor]:
    """Pad or crop a waveform to target_len samples. Returns (waveform, mask)."""
    n = wav.size(-1)
    if n == target_len:
        return wav, torch.ones(target_len, dtype=torch.bool)
    if n > target_len:
        if window == "random":
            start = int(torch.randint(0, n - target_len + 1, ()).item())
        elif window == "center":
            start = (n - target_len) // 2
        else:
            start = 0
        return wav[..., start : start + target_len], torch.ones(target_len, dtype=torch.bool)
    padded = F.pad(wav, (0, target_len - n))
    mask = torch.zeros(target_len, dtype=torch.bool)
    mask[:n] = True
    return padded, mask
