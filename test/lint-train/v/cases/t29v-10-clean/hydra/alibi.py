import math

import tensorflow as tf
from tensorflow.keras import layers

from . import config


class AlibiBias(tf.keras.layers.Layer):
    """Adds ALiBi's linear, non-learned bias to attention scores (batch, heads, query_length, key_length)."""

    def __init__(self, alibi_bias_max=8, **kwargs):
        super().__init__(**kwargs)
        self.alibi_bias_max = alibi_bias_max

    def call(self, attention_scores):
        shape = tf.shape(attention_scores)
        key_length = shape[-1]
        num_heads = attention_scores.shape[-3]
        return tf.add(attention_scores, self._get_alibi_bias(num_heads, key_length))

    def _get_alibi_bias(self, num_heads, key_length):
        slopes = tf.expand_dims(tf.convert_to_tensor(self._get_slopes(num_heads), dtype=self.compute_dtype), 1)
        seq_range = tf.cast(tf.expand_dims(tf.range(1 - key_length, 1), 0), dtype=self.compute_dtype)
        alibi_bias = tf.expand_dims(tf.multiply(slopes, seq_range), 1)
        return tf.expand_dims(alibi_bias, 0)  # (1, num_heads, 1, key_length)

    def _get_slopes(self, num_heads):
        def get_slopes_power_of_2(n):
            start = 2 ** (-(2 ** -(math.log2(n) - math.log2(self.alibi_bias_max))))
            return [start * start ** i for i in range(n)]

        if math.log2(num_heads).is_integer():
            return get_slopes_power_of_2(num_heads)
        closest = 2 ** math.floor(math.log2(num_heads))
        return get_slopes_power_of_2(closest) + self._get_slopes(2 * closest)[0::2][: num_heads - closest]


class AlibiMultiHeadAttention(tf.keras.layers.MultiHeadAttention):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.alibi_bias = AlibiBias()

    def _compute_attention(self, query, key, value, attention_mask=None, training=None):
        # query: (B, T, N, key_dim), key: (B, S, N, key_dim)
        query = tf.multiply(query, 1.0 / math.sqrt(float(self._key_dim)))
        attention_scores = tf.einsum(self._dot_product_equation, key, query)  # (B, N, T, S)
        attention_scores = self.alibi_bias(attention_scores)
        attention_scores = self._masked_softmax(attention_scores, attention_mask)
        attention_scores_dropout = self._dropout_layer(attention_scores, training=training)
        attention_output = tf.einsum(self._combine_equation, attention_scores_dropout, value)
        return attention_output, attention_scores


class AlibiDecoderLayer(layers.Layer):
    def __init__(self):
        super().__init__()
        self.attn = AlibiMultiHeadAttention(num_heads=config.de_heads, key_dim=config.embed_dim // config.de_heads)
        self.norm = layers.LayerNormalization(epsilon=1e-6)

    def call(self, x):
        return x + self.attn(self.norm(x), self.norm(x), use_causal_mask=True)
