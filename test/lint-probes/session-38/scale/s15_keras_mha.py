import tensorflow as tf
from tensorflow import keras


class TalkingMHA(keras.layers.MultiHeadAttention):
    def _compute_attention(self, query, key, value, attention_mask=None, training=None):
        # query: (B, T, N, H); the base class scales q by 1/sqrt(key_dim)
        query = tf.multiply(query, 1.0 / tf.math.sqrt(float(self._key_dim)))
        scores = tf.einsum(self._dot_product_equation, key, query)
        scores = self._masked_softmax(scores, attention_mask)
        scores = self._dropout_layer(scores, training=training)
        out = tf.einsum(self._combine_equation, scores, value)
        return out, scores
