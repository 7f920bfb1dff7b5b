# case: b4-23-clean
# modelled-on: harshaygadekar/dl-from-scratch https://github.com/harshaygadekar/dl-from-scratch/commit/95948252c783bdbf691af48997ac5993feb5ebe0
# label: correct
# class: clean
# pattern: NumPy exercise solutions for attention: masks.py gives keep masks (np.tril ones for causality, an arange < length comparison for padding); the raw q @ k^T scores are computed in query chunks by one helper without a scale, and the attention divides them by sqrt(d) afterwards, keeps the positions where the mask is > 0 with np.where(mask > 0, scores, -1e9), and applies a max-subtracted softmax helper over the last axis
# why: correct: the chunked helper only returns raw products and its caller applies the 1/sqrt(d) scale once; the masks are 1 where attention is allowed and np.where keeps those scores; float64/float32 NumPy arrays hold -1e9
# looks-like: ATT001, ATT002, ATT003, ATT005, ATT007
# source: https://github.com/harshaygadekar/dl-from-scratch https://github.com/harshaygadekar/dl-from-scratch/commit/95948252c783bdbf691af48997ac5993feb5ebe0 Module 04-Transformers-Production/Topic 25-Efficient-Self-Attention/solutions/level01_naive.py
import numpy as np

from masks import causal_mask, padding_mask


def softmax(x, axis=-1):
    x = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(x)
    return e / np.sum(e, axis=axis, keepdims=True)


def chunked_scores(q, k, chunk=64):
    """q, k: (B, T, D) -> raw q @ k^T, (B, T, T), computed chunk by chunk over the queries."""
    b, t, _ = q.shape
    out = np.zeros((b, t, t), dtype=q.dtype)
    for start in range(0, t, chunk):
        end = min(start + chunk, t)
        out[:, start:end, :] = np.matmul(q[:, start:end, :], np.swapaxes(k, -1, -2))
    return out


def attention(q, k, v, mask=None, chunk=64):
    """q, k, v: (B, T, D); mask: (T, T) or (B, T, T) or (B, 1, T), 1 = keep, 0 = block."""
    d = q.shape[-1]
    scores = chunked_scores(q, k, chunk) / np.sqrt(d)
    if mask is not None:
        if mask.ndim == 2:
            mask = mask[None, :, :]
        scores = np.where(mask > 0, scores, -1e9)
    weights = softmax(scores, axis=-1)
    return np.matmul(weights, v), weights


def decoder_self_attention(x, lengths):
    t = x.shape[1]
    keep = causal_mask(t)[None, :, :] * padding_mask(lengths, t)  # (B, T, T)
    return attention(x, x, x, keep)[0]
