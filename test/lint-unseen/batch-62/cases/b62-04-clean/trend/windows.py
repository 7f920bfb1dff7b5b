"""Fixed-length look-back windows of daily features per asset, labelled by the forward return."""
from dataclasses import dataclass
from typing import Dict

import numpy as np
import torch
from torch.utils.data import Dataset


@dataclass
class WindowSet:
    data: np.ndarray      # (n_windows, lookback, n_features), every window complete
    labels: np.ndarray    # (n_windows,) 1 if the forward return beats the threshold
    dates: np.ndarray
    assets: np.ndarray


def make_windows(panel: np.ndarray, lookback: int, stride: int, horizon: int, threshold: float) -> WindowSet:
    """panel: (n_days, n_assets, n_features), forward-filled; windows with any gap are dropped."""
    xs, ys, ds, as_ = [], [], [], []
    n_days, n_assets, _ = panel.shape
    for end in range(lookback, n_days - horizon, stride):
        for a in range(n_assets):
            win = panel[end - lookback:end, a]
            if np.isnan(win).any():
                continue
            fwd = panel[end + horizon - 1, a, 0] / panel[end - 1, a, 0] - 1.0
            xs.append(win)
            ys.append(int(fwd > threshold))
            ds.append(end)
            as_.append(a)
    return WindowSet(np.stack(xs).astype(np.float32), np.array(ys), np.array(ds), np.array(as_))


class TrendDataset(Dataset):
    def __init__(self, windows: WindowSet):
        self.w = windows

    def __len__(self) -> int:
        return len(self.w.labels)

    def __getitem__(self, i: int) -> Dict[str, torch.Tensor]:
        return {"input": torch.from_numpy(self.w.data[i]), "label": torch.tensor(self.w.labels[i])}
