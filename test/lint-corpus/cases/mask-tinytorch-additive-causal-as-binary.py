# case: mask-tinytorch-additive-causal-as-binary
# modelled-on: harvard-edge/cs249r_book https://github.com/harvard-edge/cs249r_book/pull/1785
# label: buggy
# pattern: a NumPy teaching framework: the attention module's mask helper takes a binary mask (1 = may attend, 0 = blocked) and adds (1 - mask) * MASK_VALUE to the scores; the GPT module builds its causal mask as an additive one (-inf above the diagonal, 0 elsewhere) and hands it to that helper
# why: every allowed position (value 0) receives (1 - 0) * -1e9 and is blocked, while the future positions receive (1 - (-inf)) * -1e9 = -inf: the mask means the opposite of what the helper reads, and in float32 a score plus -1e9 loses every digit of the score, so each query attends uniformly over its past
import math

import numpy as np

MASK_VALUE = -1e9


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    x = x - x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def _apply_mask(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """mask: (T, T) or (B, T, T) binary, 1 = may attend, 0 = blocked."""
    return scores + (1 - mask) * MASK_VALUE  # expect: ATT002


def scaled_dot_product_attention(Q, K, V, mask=None):
    d_k = Q.shape[-1]
    scores = Q @ np.swapaxes(K, -2, -1) / math.sqrt(d_k)  # (B, T, T)
    if mask is not None:
        scores = _apply_mask(scores, mask)
    weights = softmax(scores, axis=-1)
    return weights @ V, weights


class GPT:
    def __init__(self, vocab_size: int, embed_dim: int, max_len: int, seed: int = 0):
        rng = np.random.default_rng(seed)
        self.tok = rng.normal(0, 0.02, (vocab_size, embed_dim)).astype(np.float32)
        self.pos = rng.normal(0, 0.02, (max_len, embed_dim)).astype(np.float32)
        self.w_q = rng.normal(0, embed_dim ** -0.5, (embed_dim, embed_dim)).astype(np.float32)
        self.w_k = rng.normal(0, embed_dim ** -0.5, (embed_dim, embed_dim)).astype(np.float32)
        self.w_v = rng.normal(0, embed_dim ** -0.5, (embed_dim, embed_dim)).astype(np.float32)
        self.head = rng.normal(0, 0.02, (embed_dim, vocab_size)).astype(np.float32)

    def _create_causal_mask(self, seq_len: int) -> np.ndarray:
        # -inf above the diagonal (future tokens), 0 where attention is allowed
        return np.triu(np.ones((seq_len, seq_len), dtype=np.float32) * -np.inf, k=1)

    def forward(self, tokens: np.ndarray) -> np.ndarray:
        seq_len = tokens.shape[1]
        x = self.tok[tokens] + self.pos[:seq_len]  # (B, T, D)
        mask = self._create_causal_mask(seq_len)
        out, _ = scaled_dot_product_attention(x @ self.w_q, x @ self.w_k, x @ self.w_v, mask=mask)
        return (x + out) @ self.head  # (B, T, vocab)
