import tensorflow as tf


class MHA(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)

    def split_heads(self, x, batch_size):
        x = tf.reshape(x, (batch_size, -1, self.num_heads, self.depth))
        return tf.transpose(x, perm=[0, 2, 1, 3])

    def call(self, v, k, q):
        bs = tf.shape(q)[0]
        q = self.split_heads(self.wq(q), bs)
        k = self.split_heads(self.wk(k), bs)
        v = self.split_heads(self.wv(v), bs)
        q *= tf.math.rsqrt(tf.cast(self.depth, tf.float32))
        logits = tf.matmul(q, k, transpose_b=True)
        w = tf.nn.softmax(logits, axis=-1)
        return tf.matmul(w, v)
