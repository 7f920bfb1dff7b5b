import numpy as np

from .functional import ScaledDotProductAttention as SDPAFunction
from .functional import combine_heads, split_heads


class Parameter:
    def __init__(self, data: np.ndarray):
        self.data = data
        self.grad = None

    def __rmatmul__(self, other):
        return other @ self.data


class ScaledDotProductAttention:
    def __init__(self, dropout_p: float = 0.0):
        self.dropout_p = dropout_p
        self.training = True
        self.fn = SDPAFunction()

    def __call__(self, query, key, value, mask=None):
        # mask: boolean with True = attend, or float with a large negative number where blocked
        return self.fn(query, key, value, mask=mask, dropout_p=self.dropout_p, training=self.training)


class MultiHeadAttention:
    def __init__(self, d_model: int, num_heads: int, dropout_p: float = 0.0):
        assert d_model % num_heads == 0
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        scale = np.sqrt(2.0 / (d_model + d_model))
        self.W_q = Parameter(np.random.randn(d_model, d_model) * scale)
        self.W_k = Parameter(np.random.randn(d_model, d_model) * scale)
        self.W_v = Parameter(np.random.randn(d_model, d_model) * scale)
        self.W_o = Parameter(np.random.randn(d_model, d_model) * scale)
        self.attention = ScaledDotProductAttention(dropout_p=dropout_p)

    def __call__(self, query, key, value, mask=None):
        query = split_heads(query @ self.W_q, self.num_heads, self.d_k)
        key = split_heads(key @ self.W_k, self.num_heads, self.d_k)
        value = split_heads(value @ self.W_v, self.num_heads, self.d_k)
        output = self.attention(query, key, value, mask=mask)
        return combine_heads(output, self.d_model) @ self.W_o


class CachedMultiHeadAttention(MultiHeadAttention):
    """Keeps the projected keys and values of earlier calls and appends the new ones; the caller passes the mask."""

    def __init__(self, d_model: int, num_heads: int, dropout_p: float = 0.0):
        super().__init__(d_model, num_heads, dropout_p)
        self.cached_K = None
        self.cached_V = None

    def __call__(self, query, key=None, value=None, mask=None, use_cache=True):
        query = split_heads(query @ self.W_q, self.num_heads, self.d_k)
        if key is not None:
            key = split_heads(key @ self.W_k, self.num_heads, self.d_k)
            if use_cache:
                if self.cached_K is not None:
                    key = np.concatenate([self.cached_K, key], axis=-2)
                self.cached_K = key
        else:
            key = self.cached_K
        if value is not None:
            value = split_heads(value @ self.W_v, self.num_heads, self.d_k)
            if use_cache:
                if self.cached_V is not None:
                    value = np.concatenate([self.cached_V, value], axis=-2)
                self.cached_V = value
        else:
            value = self.cached_V
        output = self.attention(query, key, value, mask=mask)
        return combine_heads(output, self.d_model) @ self.W_o

    def clear_cache(self):
        self.cached_K = None
        self.cached_V = None
