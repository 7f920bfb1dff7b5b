# case: b7-35-clean
# modelled-on: Kiran-Jones/transformer-from-scratch https://github.com/Kiran-Jones/transformer-from-scratch/commit/2b2d3afe497d07cc64d211bdd2dc263a80c95a5b
# label: correct
# class: clean
# pattern: a NumPy encoder-decoder transformer with hand-written backward passes: sdpa() forms Q @ swapaxes(K, -2, -1), divides in place by sqrt(d_k) and applies np.where(mask == 0, -1e9, scores); the multi-head class in another module reshapes to (B, heads, T, d_k) with transpose(0, 2, 1, 3); the masks come from a third module (padding seq != pad as (B, 1, 1, T) and np.tril look-ahead, both 1 = keep) and the model multiplies them (keep only where both keep)
# why: correct: the masks are keep masks combined by product, filled where 0; swapaxes(K, -2, -1) transposes only the key and feature axes of the 4-D keys; -1e9 fits float64; the softmax helper normalises the last axis
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT007
# source: https://github.com/Kiran-Jones/transformer-from-scratch https://github.com/Kiran-Jones/transformer-from-scratch/commit/2b2d3afe497d07cc64d211bdd2dc263a80c95a5b src/model/sdpa.py
import numpy as np

from utils import softmax


def sdpa(Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask=None, return_weights=False):
    # Q: (B, h, T_q, d_k), K, V: (B, h, T_k, d_k)
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -2, -1)
    scores /= np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask == 0, -1e9, scores)  # mask == 0 means masked
    attn_weights = softmax(scores)
    if return_weights:
        return attn_weights @ V, attn_weights
    return attn_weights @ V
