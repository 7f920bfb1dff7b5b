# case: b36-04-clean
# modelled-on: salwanaylaadistri/nlp_transformer https://github.com/salwanaylaadistri/nlp_transformer/commit/7c07eded7002e4c001292c2285207f9d5757c6ac
# label: correct
# class: clean
# pattern: a decoder-only Transformer written in NumPy only (a course exercise): a max-shifted softmax(x, axis=-1); causal_mask returns the additive form (1 - tril(ones)) * -1e9; multi-head attention splits heads with reshape / transpose(0, 2, 1, 3), optionally rotates queries and keys with rotary position embeddings (pairs of even and odd features), computes Q @ K.transpose(0, 1, 3, 2) / sqrt(head_dim), adds the mask broadcast as [None, None, :, :] and softmaxes over the last axis; the forward pass checks that no weight reaches a later position
# why: correct: tril is 1 on the keys a query may see, so (1 - tril) * -1e9 is 0 there and -1e9 on the future keys, the additive form that is added (float32 holds -1e9; the diagonal is always 0); transpose(0, 1, 3, 2) swaps only the last two axes of the 4-D keys; the scale is the per-head width; the softmax's axis=-1 is the key axis; RoPE rotates queries and keys alike and leaves the scale unchanged
# looks-like: ATT002, ATT004, ATT005, ATT007
# source: https://github.com/salwanaylaadistri/nlp_transformer https://github.com/salwanaylaadistri/nlp_transformer/commit/7c07eded7002e4c001292c2285207f9d5757c6ac transformer_scratch.py
import numpy as np


def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def causal_mask(seq_len):
    keep = np.tril(np.ones((seq_len, seq_len), dtype=np.float32))
    # additive form: 0 where a query may look, -1e9 on the future keys
    return (1.0 - keep) * -1e9


class RotaryPositionEmbedding:
    def __init__(self, head_dim, max_len=512):
        assert head_dim % 2 == 0
        inv_freq = 1.0 / (10000 ** (np.arange(0, head_dim, 2) / head_dim))
        angles = np.outer(np.arange(max_len), inv_freq)
        self.cos, self.sin = np.cos(angles).astype(np.float32), np.sin(angles).astype(np.float32)

    def apply(self, x):
        # x: [batch, heads, seq, head_dim]; rotate each (even, odd) pair by its position's angle
        b, h, seq, d = x.shape
        cos, sin = self.cos[None, None, :seq], self.sin[None, None, :seq]
        pairs = x.reshape(b, h, seq, d // 2, 2)
        even, odd = pairs[..., 0], pairs[..., 1]
        return np.stack([even * cos - odd * sin, even * sin + odd * cos], axis=-1).reshape(b, h, seq, d)


class MultiHeadAttention:
    def __init__(self, d_model, n_heads, rng, rotary=None):
        assert d_model % n_heads == 0
        self.n_heads, self.head_dim = n_heads, d_model // n_heads
        self.W_q, self.W_k, self.W_v, self.W_o = (
            rng.normal(scale=0.02, size=(d_model, d_model)).astype(np.float32) for _ in range(4)
        )
        self.rotary = rotary

    def _split(self, x):
        b, seq, _ = x.shape
        return x.reshape(b, seq, self.n_heads, self.head_dim).transpose(0, 2, 1, 3)

    def __call__(self, x, attn_mask=None):
        Qh, Kh, Vh = self._split(x @ self.W_q), self._split(x @ self.W_k), self._split(x @ self.W_v)
        if self.rotary is not None:
            Qh, Kh = self.rotary.apply(Qh), self.rotary.apply(Kh)
        # [b, heads, seq_q, seq_k]
        scores = np.matmul(Qh, Kh.transpose(0, 1, 3, 2)) / np.sqrt(self.head_dim)
        if attn_mask is not None:
            scores = scores + attn_mask[None, None, :, :]
        probs = softmax(scores, axis=-1)
        out = np.matmul(probs, Vh)
        b, _, seq, _ = out.shape
        return out.transpose(0, 2, 1, 3).reshape(b, seq, -1) @ self.W_o, probs


def decoder_forward(blocks, ln, x):
    """x: [batch, seq, d_model]; every block sees the same additive causal mask."""
    mask = causal_mask(x.shape[1])
    attn_last = None
    for mha, ffn in blocks:
        attn_out, attn_last = mha(ln(x), attn_mask=mask)
        x = x + attn_out
        x = x + ffn(ln(x))
    # no weight may go to a later position
    assert np.triu(attn_last[0, 0], k=1).max() < 1e-5
    return x, attn_last
