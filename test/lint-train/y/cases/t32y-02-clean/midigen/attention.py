from typing import Optional

import tensorflow as tf


class DotAttention(tf.keras.layers.Layer):
    """Scaled dot-product attention; mask is 1 on the positions to hide."""

    def __init__(self, dropout_rate: Optional[float] = 0.1):
        super().__init__()
        self.drop = tf.keras.layers.Dropout(dropout_rate)

    def call(self, query, key, value, mask=None, training=None):
        d_k = tf.cast(tf.shape(key)[-1], tf.float32)
        logits = tf.matmul(query, key, transpose_b=True) / tf.math.sqrt(d_k)
        if mask is not None:
            logits -= 1e9 * mask
        weights = tf.nn.softmax(logits, axis=-1)
        weights = self.drop(weights, training=training)
        return tf.matmul(weights, value), weights
