import numpy as np


def causal_mask(seq_len):
    """Lower-triangular mask, 1 where a position may be attended."""
    return np.tril(np.ones((seq_len, seq_len), dtype=np.float32))


def padding_mask(lengths, seq_len):
    """(B,) lengths -> (B, 1, T): 1 on the real tokens."""
    keep = np.arange(seq_len)[None, :] < np.asarray(lengths)[:, None]
    return keep[:, None, :].astype(np.float32)
