# case: t35bb-09-clean
# modelled-on: yravan/ml_implementation https://github.com/yravan/ml_implementation/commit/9f029469c863d1935e8c25a687266fa3a591640f
# label: correct
# class: clean
# pattern: a NumPy deep-learning library from scratch: scaled dot-product attention as a Function with forward and backward; the forward takes either an additive float mask (`create_causal_mask`: `np.where(triu(ones, k=1) == 0, 0.0, -1e9)`) added to `Q @ K.swapaxes(-1, -2) / np.sqrt(d_k)`, or a boolean keep mask applied by boolean indexing `pre_softmax[~mask] = -np.inf`; the backward computes grad_V = A^T @ g, the softmax backward `A * (gA - sum(gA * A, -1)) / sqrt(d_k)`, grad_Q = G @ K and grad_K = G^T @ Q; the module wrappers (another file) split heads with `reshape(B, L, h, d_k).transpose(0, 2, 1, 3)`, and a cached subclass concatenates new keys to its cached keys along the sequence axis (-2)
# why: correct: the key axis is swapped with `swapaxes(-1, -2)` of (B, h, L, d_k) keys; the boolean mask is a keep mask (True = attend, per the docstring) and `~mask` selects the blocked scores; the additive mask is 0 where allowed and -1e9 above the diagonal; in the backward the transposes belong to gradients (A^T @ g, G^T @ Q), the division by sqrt(d_k) is the chain rule through the forward's scale, and the sum over the last axis is the softmax Jacobian-vector product, not a renormalisation
# looks-like: ATT001, ATT002, ATT004, ATT005, ATT006, ATT008
# source: https://github.com/yravan/ml_implementation https://github.com/yravan/ml_implementation/commit/9f029469c863d1935e8c25a687266fa3a591640f python/nn_core/attention_functional.py
from typing import Optional, Tuple

import numpy as np

from .foundations import Function
from .math_utils import softmax

_no_grad = False


def split_heads(x: np.ndarray, num_heads: int, d_k: int) -> np.ndarray:
    """[B, L, d_model] -> [B, num_heads, L, d_k]"""
    batch_size, seq_len, d_model = x.shape
    x = x.reshape(batch_size, seq_len, num_heads, d_k)
    return x.transpose(0, 2, 1, 3)


def combine_heads(x: np.ndarray, d_model: int) -> np.ndarray:
    """[B, num_heads, L, d_k] -> [B, L, d_model]"""
    batch_size, num_heads, seq_len, d_k = x.shape
    x = x.transpose(0, 2, 1, 3)
    return x.reshape(batch_size, seq_len, d_model)


def create_causal_mask(seq_len: int, dtype=np.float32) -> np.ndarray:
    """[seq_len, seq_len]: 0.0 where attention is allowed, a large negative number where blocked."""
    mask = np.triu(np.ones((seq_len, seq_len)), k=1)
    return np.where(mask == 0, 0.0, -1e9).astype(dtype)


class ScaledDotProductAttention(Function):
    """Q, K: (batch, heads, seq, d_k); V: (batch, heads, seq_k, d_v); mask broadcastable to the scores."""

    def forward(self, Q: np.ndarray, K: np.ndarray, V: np.ndarray, mask: Optional[np.ndarray] = None,
                dropout_p: float = 0.0, training: bool = True) -> np.ndarray:
        d_k = Q.shape[-1]
        if mask is not None:
            if mask.dtype == np.float32:
                attn_matrix = softmax(Q @ K.swapaxes(-1, -2) / np.sqrt(d_k) + mask, axis=-1)
            if mask.dtype == np.bool_:
                pre_softmax = Q @ K.swapaxes(-1, -2) / np.sqrt(d_k)
                pre_softmax[~mask] = -np.inf
                attn_matrix = softmax(pre_softmax, axis=-1)
        else:
            attn_matrix = softmax(Q @ K.swapaxes(-1, -2) / np.sqrt(d_k), axis=-1)

        if training and dropout_p > 1e-8:
            dropout_mask = np.random.uniform(size=attn_matrix.shape) > dropout_p
            attn_output = (attn_matrix * dropout_mask.astype(attn_matrix.dtype) * 1 / (1 - dropout_p)) @ V
        else:
            attn_output = attn_matrix @ V
            dropout_mask = None

        if not _no_grad:
            self.attn_matrix = attn_matrix
            self.V = V
            self.K = K
            self.Q = Q
            self.d_k = d_k
            self.dropout_mask = dropout_mask
            self.dropout_p = dropout_p
        return attn_output

    def backward(self, grad_output: np.ndarray) -> Tuple[np.ndarray, np.ndarray, np.ndarray]:
        grad_V = self.attn_matrix.swapaxes(-1, -2) @ grad_output
        grad_attn_matrix = grad_output @ self.V.swapaxes(-1, -2)
        if self.dropout_mask is not None:
            grad_attn_matrix = grad_attn_matrix * self.dropout_mask / (1 - self.dropout_p)
        weighted_sum = (grad_attn_matrix * self.attn_matrix).sum(axis=-1, keepdims=True)
        grad_pre_softmax = self.attn_matrix * (grad_attn_matrix - weighted_sum) / np.sqrt(self.d_k)
        grad_Q = grad_pre_softmax @ self.K
        grad_K = grad_pre_softmax.swapaxes(-1, -2) @ self.Q
        return grad_Q, grad_K, grad_V
