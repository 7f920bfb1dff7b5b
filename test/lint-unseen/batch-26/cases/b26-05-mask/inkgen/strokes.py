from typing import List, Tuple

import numpy as np
import torch


def to_sequence_tensor(samples: List[List[np.ndarray]]) -> Tuple[torch.Tensor, torch.Tensor]:
    """Pen trajectories as (N, T, 4): dx, dy, end-of-stroke, end-of-sample; mask True on real points."""
    longest = max(sum(s.shape[0] for s in strokes) for strokes in samples)
    seq = torch.zeros((len(samples), longest, 4))
    mask = torch.zeros((len(samples), longest), dtype=torch.bool)
    for i, strokes in enumerate(samples):
        j = 0
        for stroke in strokes:
            n = stroke.shape[0]
            seq[i, j : j + n, :2] = torch.from_numpy(stroke)
            mask[i, j : j + n] = 1
            seq[i, j + n - 1, 2] = 1
            j += n
        seq[i, j - 1, 3] = 1
    seq[:, :-1, :2] = seq[:, 1:, :2] - seq[:, :-1, :2]
    seq[:, :, :2] = seq[:, :, :2] / torch.std(seq[:, :, :2], dim=(0, 1), keepdim=True)
    return seq, mask
