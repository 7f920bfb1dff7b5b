import numpy as np

from .functional import ScaledDotProductAttention as SDPAFunction
from .functional import combine_heads, split_heads


class MultiQueryAttention:
    """num_heads query heads share one key/value head."""

    def __init__(self, d_model: int, num_heads: int, dropout_p: float = 0.0):
        self.d_model = d_model
        self.num_heads = num_heads
        self.d_k = d_model // num_heads
        self.d_v = d_model // num_heads
        self.dropout_p = dropout_p
        scale = np.sqrt(2.0 / (d_model + d_model))
        self.W_q = np.random.randn(d_model, d_model) * scale
        scale_kv = np.sqrt(2.0 / (d_model + self.d_k))
        self.W_k = np.random.randn(d_model, self.d_k) * scale_kv
        self.W_v = np.random.randn(d_model, self.d_v) * scale_kv
        self.W_o = np.random.randn(d_model, d_model) * scale
        self.attention = SDPAFunction()

    def __call__(self, query, key, value, mask=None, training=False):
        query = split_heads(query @ self.W_q, self.num_heads, self.d_k)  # [B, h, Lq, d_k]
        key = (key @ self.W_k)[:, None, :, :]  # [B, 1, Lk, d_k], broadcast over the heads
        value = (value @ self.W_v)[:, None, :, :]
        output = self.attention(query, key, value, mask=mask, dropout_p=self.dropout_p, training=training)
        return combine_heads(output, self.d_model) @ self.W_o


class GroupedQueryAttention:
    """num_heads query heads in num_kv_groups groups; each group shares one key/value head."""

    def __init__(self, d_model: int, num_heads: int, num_kv_groups: int, dropout_p: float = 0.0):
        assert num_heads % num_kv_groups == 0
        self.d_model = d_model
        self.num_heads = num_heads
        self.num_kv_groups = num_kv_groups
        self.group_size = num_heads // num_kv_groups
        self.d_k = d_model // num_heads
        self.d_v = d_model // num_heads
        self.dropout_p = dropout_p
        scale = np.sqrt(2.0 / (d_model + d_model))
        self.W_q = np.random.randn(d_model, d_model) * scale
        kv_dim = num_kv_groups * self.d_k
        scale_kv = np.sqrt(2.0 / (d_model + kv_dim))
        self.W_k = np.random.randn(d_model, kv_dim) * scale_kv
        self.W_v = np.random.randn(d_model, kv_dim) * scale_kv
        self.W_o = np.random.randn(d_model, d_model) * scale
        self.attention = SDPAFunction()

    def __call__(self, query, key, value, mask=None, training=False):
        query = split_heads(query @ self.W_q, self.num_heads, self.d_k)
        key = split_heads(key @ self.W_k, self.num_kv_groups, self.d_k)
        value = split_heads(value @ self.W_v, self.num_kv_groups, self.d_v)
        head_outputs = []
        for g in range(self.num_kv_groups):
            start = g * self.group_size
            q_g = query[:, start:start + self.group_size, :, :]
            k_g = key[:, g:g + 1, :, :]
            v_g = value[:, g:g + 1, :, :]
            head_outputs.append(self.attention(q_g, k_g, v_g, mask=mask, dropout_p=self.dropout_p, training=training))
        output = np.concatenate(head_outputs, axis=1)
        return combine_heads(output, self.d_model) @ self.W_o
