import tensorflow as tf


def scaled_dot_product_attention(q, k, v, mask):
    matmul_qk = tf.matmul(q, k, transpose_b=True)
    dk = tf.cast(tf.shape(k)[-1], tf.float32)
    logits = matmul_qk / tf.math.sqrt(dk)
    if mask is not None:
        logits += mask * -1e9
    weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(weights, v), weights


class MultiHeadedAttention(tf.keras.layers.Layer):
    """Unbatched: inputs are (T, d_model) for one trajectory."""

    def __init__(self, d_model, num_heads):
        super().__init__()
        self.num_heads = num_heads
        self.d_model = d_model
        self.depth = d_model // num_heads
        self.wq = tf.keras.layers.Dense(d_model)
        self.wk = tf.keras.layers.Dense(d_model)
        self.wv = tf.keras.layers.Dense(d_model)

    def split_heads(self, x):
        x = tf.reshape(x, [-1, self.num_heads, self.depth])
        return tf.transpose(x, perm=[1, 0, 2])

    def call(self, v, k, q, mask):
        q = self.split_heads(self.wq(q))
        k = self.split_heads(self.wk(k))
        v = self.split_heads(self.wv(v))
        out, weights = scaled_dot_product_attention(q, k, v, mask)
        out = tf.transpose(out, perm=[1, 0, 2])
        return tf.reshape(out, [-1, self.d_model]), weights
