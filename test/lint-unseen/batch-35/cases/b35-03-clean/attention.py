import numpy as np


def softmax(x, axis=-1):
    shifted = x - np.max(x, axis=axis, keepdims=True)
    e = np.exp(shifted)
    return e / np.sum(e, axis=axis, keepdims=True)


def to_heads(x, n_heads):
    b, t, d = x.shape
    return x.reshape(b, t, n_heads, d // n_heads).transpose(0, 2, 1, 3)


def from_heads(x):
    b, h, t, hd = x.shape
    return x.transpose(0, 2, 1, 3).reshape(b, t, h * hd)


def attend(q, k, v, mask=None):
    """q, k, v: (batch, heads, tokens, head_dim); mask: 1 = may attend, 0 = blocked (broadcastable)."""
    d_k = q.shape[-1]
    scores = q @ k.transpose(0, 1, 3, 2) / np.sqrt(d_k)
    if mask is not None:
        scores = np.where(mask == 0, -1e9, scores)
    weights = softmax(scores, axis=-1)
    return weights @ v, weights


def lower_triangle(n):
    return np.tril(np.ones((n, n)))


def key_padding(real_tokens):
    """(batch, tokens) 1/0 -> (batch, 1, 1, tokens) float."""
    return real_tokens[:, np.newaxis, np.newaxis, :].astype(np.float32)


def decoder_self_mask(n, real_tokens):
    return lower_triangle(n)[np.newaxis, np.newaxis, :, :] * key_padding(real_tokens)


class Linear:
    def __init__(self, d_in, d_out, seed=0):
        rng = np.random.default_rng(seed)
        self.w = rng.normal(0.0, np.sqrt(2.0 / (d_in + d_out)), size=(d_in, d_out))
        self.b = np.zeros(d_out)

    def forward(self, x):
        self.x = x
        return x @ self.w + self.b


class MultiHeadAttention:
    def __init__(self, d_model, n_heads, seed=42):
        assert d_model % n_heads == 0
        self.n_heads = n_heads
        self.wq, self.wk = Linear(d_model, d_model, seed), Linear(d_model, d_model, seed + 1)
        self.wv, self.wo = Linear(d_model, d_model, seed + 2), Linear(d_model, d_model, seed + 3)

    def forward(self, query, key, value, mask=None):
        q = to_heads(self.wq.forward(query), self.n_heads)
        k = to_heads(self.wk.forward(key), self.n_heads)
        v = to_heads(self.wv.forward(value), self.n_heads)
        out, weights = attend(q, k, v, mask)
        self.saved = (q, k, v, weights)
        return self.wo.forward(from_heads(out))

    def scores_grad(self, grad_weights):
        """Backward through the softmax and the 1/sqrt(d_k) factor."""
        q, k, v, weights = self.saved
        inner = np.sum(grad_weights * weights, axis=-1, keepdims=True)
        grad_scores = weights * (grad_weights - inner) / np.sqrt(q.shape[-1])
        return grad_scores @ k, grad_scores.transpose(0, 1, 3, 2) @ q
