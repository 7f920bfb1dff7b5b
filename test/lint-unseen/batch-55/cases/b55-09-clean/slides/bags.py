import numpy as np
import torch


def pick_tiles(n_tiles, n_sample, rng):
    """Training draws a fixed number of tiles per patient (with replacement if too few); inference keeps all."""
    if n_sample is None or n_tiles <= 0:
        return np.arange(n_tiles)
    return np.sort(rng.choice(n_tiles, size=n_sample, replace=n_tiles < n_sample))


def load_bag(cache, n_sample, rng, train=True):
    feats = cache["features"]  # (views, tiles, dim), stored in half precision
    views, n_tiles, _ = feats.shape
    idx = torch.as_tensor(pick_tiles(n_tiles, n_sample, rng), dtype=torch.long)
    view = torch.as_tensor(rng.integers(0, views, size=len(idx))) if train and views > 1 else torch.zeros(len(idx), dtype=torch.long)
    return feats[view, idx].float()


def pad_bags(items):
    """Bags of different sizes padded to the largest; `valid` is True on real tiles."""
    sizes = [int(it["features"].shape[0]) for it in items]
    width = max(sizes)
    dim = items[0]["features"].shape[1]
    feats = items[0]["features"].new_zeros((len(items), width, dim))
    valid = torch.zeros(len(items), width, dtype=torch.bool)
    for row, (it, n) in enumerate(zip(items, sizes)):
        feats[row, :n] = it["features"]
        valid[row, :n] = True
    return {
        "features": feats,
        "valid": valid,
        "label": torch.stack([it["label"] for it in items]),
        "n_tiles": torch.tensor(sizes),
    }
