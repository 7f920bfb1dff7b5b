"""Events of one Compton source, padded to MAX_EVENTS, with a validity mask."""
import os

import numpy as np
import pandas as pd
import tensorflow as tf

FEATURE_COLS = ["e1", "e2", "x1", "y1", "z1", "x2", "y2", "z2"]
MAX_EVENTS = int(os.environ.get("COMPTON_MAX_EVENTS", "3000"))
PADDING_MODE = os.environ.get("COMPTON_PADDING_MODE", "zeros")   # zeros | repeat
MASK_PADDED_EVENTS = os.environ.get("COMPTON_MASK_PADDED", "1") == "1"
BATCH_SIZE = 32


def build_source_tensors(df: pd.DataFrame, max_events: int = MAX_EVENTS):
    """X: float32 [S, max_events, F]; mask: bool [S, max_events], True for valid events."""
    groups = list(df.groupby("source_id"))
    X = np.zeros((len(groups), max_events, len(FEATURE_COLS)), dtype=np.float32)
    mask = np.zeros((len(groups), max_events), dtype=bool)
    for i, (_, g) in enumerate(groups):
        feats = g[FEATURE_COLS].to_numpy(dtype=np.float32)
        n_use = min(len(feats), max_events)
        X[i, :n_use] = feats[:n_use]
        mask[i, :n_use] = True
        if 0 < n_use < max_events and PADDING_MODE == "repeat":
            reps = int(np.ceil((max_events - n_use) / n_use))
            X[i, n_use:] = np.tile(feats[:n_use], (reps, 1))[: max_events - n_use]
            if not MASK_PADDED_EVENTS:
                mask[i, n_use:] = True  # repeated events count as real ones
    return X, mask


def make_tf_dataset(X: np.ndarray, mask: np.ndarray, y: np.ndarray, training: bool) -> tf.data.Dataset:
    ds = tf.data.Dataset.from_tensor_slices(({"events": X, "mask": mask}, y.astype("float32")))
    if training:
        ds = ds.shuffle(min(len(X), 10_000), reshuffle_each_iteration=True)
    return ds.batch(BATCH_SIZE).prefetch(tf.data.AUTOTUNE)
