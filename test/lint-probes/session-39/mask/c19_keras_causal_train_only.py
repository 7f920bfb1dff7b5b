import tensorflow as tf


class DecoderLayer(tf.keras.layers.Layer):
    def __init__(self, d, h):
        super().__init__()
        self.mha = tf.keras.layers.MultiHeadAttention(num_heads=h, key_dim=d // h)

    def call(self, x, cache=None):
        if cache is None:
            return self.mha(x, x, use_causal_mask=True), x  # teacher forcing
        keys = tf.concat([cache, x], axis=1)
        # one new query per step: it may see every cached key
        return self.mha(x, keys), keys
