# case: mask-tinytorch-tril-binary-causal
# modelled-on: harvard-edge/cs249r_book https://github.com/harvard-edge/cs249r_book/pull/1785
# label: correct
# pattern: the fixed GPT module: the causal mask is built as np.tril(np.ones((T, T))), the binary keep mask the attention helper expects, and the helper turns it into (1 - mask) * MASK_VALUE
# why: 1 on and below the diagonal keeps the past and the token itself; (1 - mask) * -1e9 blocks only the future, in float32 scores where -1e9 is finite
# looks-like: ATT002, ATT007
import math

import numpy as np

MASK_VALUE = -1e9


def softmax(x: np.ndarray, axis: int = -1) -> np.ndarray:
    x = x - x.max(axis=axis, keepdims=True)
    e = np.exp(x)
    return e / e.sum(axis=axis, keepdims=True)


def _apply_mask(scores: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """mask: (T, T) or (B, T, T) binary, 1 = may attend, 0 = blocked."""
    return scores + (1 - mask) * MASK_VALUE


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
        # 1 where attention is allowed (past and self), 0 for future tokens
        return np.tril(np.ones((seq_len, seq_len), dtype=np.float32))

    def forward(self, tokens: np.ndarray) -> np.ndarray:
        seq_len = tokens.shape[1]
        x = self.tok[tokens] + self.pos[:seq_len]  # (B, T, D)
        mask = self._create_causal_mask(seq_len)
        out, _ = scaled_dot_product_attention(x @ self.w_q, x @ self.w_k, x @ self.w_v, mask=mask)
        return (x + out) @ self.head  # (B, T, vocab)
