import math
import tensorflow as tf


class SelfAttention(tf.keras.layers.Layer):
    def __init__(self, num_heads, key_dim, **kwargs):
        super().__init__(**kwargs)
        self.num_heads = num_heads
        self.key_dim = key_dim
        self.q = tf.keras.layers.Dense(num_heads * key_dim)
        self.k = tf.keras.layers.Dense(num_heads * key_dim)
        self.v = tf.keras.layers.Dense(num_heads * key_dim)

    def _split(self, x):
        b = tf.shape(x)[0]
        return tf.transpose(tf.reshape(x, [b, -1, self.num_heads, self.key_dim]), [0, 2, 1, 3])

    def call(self, x):
        q, k, v = self._split(self.q(x)), self._split(self.k(x)), self._split(self.v(x))
        q = q * (1.0 / math.sqrt(float(self.key_dim)))
        w = tf.nn.softmax(tf.matmul(q, k, transpose_b=True), axis=-1)
        return tf.matmul(w, v)
