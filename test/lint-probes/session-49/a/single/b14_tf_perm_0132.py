import tensorflow as tf


class TFAttention(tf.keras.layers.Layer):
    def __init__(self, units, heads):
        super().__init__()
        self.heads = heads
        self.dh = units // heads
        self.q = tf.keras.layers.Dense(units)
        self.k = tf.keras.layers.Dense(units)
        self.v = tf.keras.layers.Dense(units)

    def call(self, x):
        b, t = tf.shape(x)[0], tf.shape(x)[1]
        split = lambda y: tf.transpose(tf.reshape(y, (b, t, self.heads, self.dh)), [0, 2, 1, 3])
        q, k, v = split(self.q(x)), split(self.k(x)), split(self.v(x))
        logits = tf.matmul(q, tf.transpose(k, perm=[0, 1, 3, 2]))
        logits = logits / tf.sqrt(tf.cast(self.dh, tf.float32))
        w = tf.nn.softmax(logits, axis=-1)
        return tf.reshape(tf.transpose(tf.matmul(w, v), [0, 2, 1, 3]), (b, t, self.heads * self.dh))
