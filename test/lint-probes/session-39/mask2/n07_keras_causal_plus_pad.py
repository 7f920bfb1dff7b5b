import tensorflow as tf


class DecoderBlock(tf.keras.layers.Layer):
    def __init__(self):
        super().__init__()
        self.att = tf.keras.layers.MultiHeadAttention(num_heads=4, key_dim=32)

    def call(self, x, ids):
        pad = tf.cast(tf.not_equal(ids, 0), tf.bool)[:, tf.newaxis, :]
        return self.att(x, x, attention_mask=pad, use_causal_mask=True)
