import math
import tensorflow as tf
from tensorflow import keras


class EinsumAttention(keras.layers.Layer):
    def __init__(self, num_heads, key_dim, **kwargs):
        super().__init__(**kwargs)
        self._num_heads = num_heads
        self._key_dim = key_dim

    def build(self, input_shape):
        d = input_shape[-1]
        self._query_dense = keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, self._num_heads, self._key_dim))
        self._key_dense = keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, self._num_heads, self._key_dim))
        self._value_dense = keras.layers.EinsumDense("abc,cde->abde", output_shape=(None, self._num_heads, self._key_dim))
        self._output_dense = keras.layers.EinsumDense("abcd,cde->abe", output_shape=(None, d))

    def _compute_attention(self, query, key, value, attention_mask=None):
        query = tf.multiply(query, 1.0 / math.sqrt(float(self._key_dim)))
        attention_scores = tf.einsum("aecd,abcd->acbe", key, query)
        if attention_mask is not None:
            attention_scores += (1.0 - tf.cast(attention_mask[:, None], attention_scores.dtype)) * -1e9
        attention_scores = tf.nn.softmax(attention_scores, axis=-1)
        return tf.einsum("acbe,aecd->abcd", attention_scores, value)

    def call(self, x, attention_mask=None):
        q = self._query_dense(x)
        k = self._key_dense(x)
        v = self._value_dense(x)
        return self._output_dense(self._compute_attention(q, k, v, attention_mask))
