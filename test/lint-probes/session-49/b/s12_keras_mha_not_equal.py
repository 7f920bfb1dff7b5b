import tensorflow as tf
from tensorflow import keras


class Block(keras.layers.Layer):
    def __init__(self, d, h):
        super().__init__()
        self.mha = keras.layers.MultiHeadAttention(num_heads=h, key_dim=d // h)

    def call(self, x, tokens):
        real = tf.math.not_equal(tokens, 0)
        attn_mask = real[:, tf.newaxis, :] & real[:, :, tf.newaxis]
        return self.mha(x, x, attention_mask=attn_mask)
