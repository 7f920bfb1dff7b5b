import tensorflow as tf
from tensorflow import keras


class Block(keras.layers.Layer):
    def __init__(self, d, h):
        super().__init__()
        self.mha = keras.layers.MultiHeadAttention(num_heads=h, key_dim=d // h)

    def call(self, x, ids):
        # x: (B, S, d); ids: (B, S)
        keep = tf.not_equal(ids, 0)  # (B, S) True at tokens
        mask = keep[:, tf.newaxis, :]  # (B, 1, S): Keras attention_mask, True = attend
        return self.mha(x, x, attention_mask=mask)
