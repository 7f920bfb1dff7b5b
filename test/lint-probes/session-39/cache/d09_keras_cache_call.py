import tensorflow as tf


class CachedSelfAttention(tf.keras.layers.Layer):
    def __init__(self, heads, key_dim):
        super().__init__()
        self.mha = tf.keras.layers.MultiHeadAttention(num_heads=heads, key_dim=key_dim)

    def call(self, x, cache=None, step=None):
        if cache is None:
            return self.mha(x, x, use_causal_mask=True), None
        cache = tf.tensor_scatter_nd_update(cache, [[step]], x[0])  # (MAX, d) keys written so far
        valid = tf.range(tf.shape(cache)[0]) <= step
        out = self.mha(x, cache[None], attention_mask=valid[None, None, :])
        return out, cache
