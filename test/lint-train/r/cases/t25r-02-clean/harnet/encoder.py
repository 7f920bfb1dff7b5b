import numpy as np
import tensorflow as tf

from harnet.attention import SelfAttentionBlock


def look_ahead_mask(size):
    return 1 - tf.linalg.band_part(tf.ones((size, size)), -1, 0)  # 1 above the diagonal


def positional_encoding(length, d_model):
    pos = np.arange(length)[:, None]
    i = np.arange(d_model)[None, :]
    angles = pos / np.power(10000, (2 * (i // 2)) / np.float32(d_model))
    angles[:, 0::2] = np.sin(angles[:, 0::2])
    angles[:, 1::2] = np.cos(angles[:, 1::2])
    return tf.cast(angles[None], tf.float32)


class ModalityEncoder(tf.keras.layers.Layer):
    def __init__(self, n_steps, d_model, num_heads, dff, n_blocks=2, rate=0.1):
        super().__init__()
        self.n_steps = n_steps
        self.future = look_ahead_mask(n_steps)
        self.embed = tf.keras.layers.Conv1D(d_model, 1, activation="relu")
        self.pe = positional_encoding(n_steps, d_model)
        self.drop = tf.keras.layers.Dropout(rate)
        self.blocks = [SelfAttentionBlock(d_model, num_heads, dff, rate) for _ in range(n_blocks)]

    def call(self, x, training=False):
        x = self.embed(x) + self.pe[:, : self.n_steps, :]
        x = self.drop(x, training=training)
        for block in self.blocks:
            x = block(x, training=training)
        return x
