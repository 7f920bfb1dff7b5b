import tensorflow as tf
from tensorflow.keras import mixed_precision

mixed_precision.set_global_policy("mixed_float16")


class MHA(tf.keras.layers.Layer):
    def __init__(self, d_model, num_heads):
        super().__init__()
        self.h, self.depth = num_heads, d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)

    def split(self, x, b):
        return tf.transpose(tf.reshape(x, (b, -1, self.h, self.depth)), [0, 2, 1, 3])

    def call(self, x, padding_mask):
        # padding_mask: (batch, 1, 1, seq), 1.0 at padding
        b = tf.shape(x)[0]
        q, k, v = self.split(self.wq(x), b), self.split(self.wk(x), b), self.split(self.wv(x), b)
        logits = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(self.depth, q.dtype))
        
        logits += padding_mask * -1e9
        w = tf.cast(tf.nn.softmax(logits, axis=-1), v.dtype)
        return tf.matmul(w, v)
