import numpy as np
from numpy import ndarray


def create_src_mask(tokens, pad_id: int, n_heads: int) -> ndarray:
    T = len(tokens)
    keep = np.array([1 if t != pad_id else 0 for t in tokens], dtype=np.uint8)[np.newaxis, :]  # keys only
    return np.broadcast_to(keep, (n_heads, T, T))


def create_tgt_mask(tokens, pad_id: int, n_heads: int) -> ndarray:
    T = len(tokens)
    causal = np.tril(np.ones((T, T), dtype=np.uint8))
    keep = np.array([1 if t != pad_id else 0 for t in tokens], dtype=np.uint8)[np.newaxis, :]
    return np.broadcast_to(causal * keep, (n_heads, T, T))


def batch_masks(src_batch, tgt_batch, pad_id: int, n_heads: int):
    src = np.stack([create_src_mask(s, pad_id, n_heads) for s in src_batch])
    tgt = np.stack([create_tgt_mask(t, pad_id, n_heads) for t in tgt_batch])
    return src, tgt
