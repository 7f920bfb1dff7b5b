import numpy as np


def causal_mask(seq_len):
    """Additive look-ahead mask: 0 on and below the diagonal, -inf above it."""
    mask = np.zeros((seq_len, seq_len))
    mask[np.triu_indices(seq_len, k=1)] = -np.inf
    return mask


def masked_attention_weights(Q, K, d_k):
    scores = np.dot(Q, K.T) / np.sqrt(d_k)
    masked = scores + causal_mask(Q.shape[0])
    e = np.exp(masked - np.max(masked, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)
