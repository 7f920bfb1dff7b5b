import tensorflow as tf


class SelfAttention(tf.keras.layers.Layer):
    def __init__(self, hidden, heads, **kw):
        super().__init__(**kw)
        self.h, self.dh = heads, hidden // heads
        self.qkv = tf.keras.layers.Dense(3 * hidden)

    def call(self, x, attention_mask):
        # attention_mask: [B, T] of 1 (token) / 0 (padding)
        B, T = tf.shape(x)[0], tf.shape(x)[1]
        qkv = tf.reshape(self.qkv(x), [B, T, 3, self.h, self.dh])
        q, k, v = tf.unstack(tf.transpose(qkv, [2, 0, 3, 1, 4]))
        scores = tf.matmul(q, k, transpose_b=True) * (self.dh ** -0.5)
        adder = (1.0 - tf.cast(attention_mask[:, None, None, :], scores.dtype)) * -10000.0
        probs = tf.nn.softmax(scores + adder, axis=-1)
        out = tf.matmul(probs, v)
        return tf.reshape(tf.transpose(out, [0, 2, 1, 3]), [B, T, self.h * self.dh])
