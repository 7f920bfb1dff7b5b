import numpy as np
import tensorflow as tf


def generate_padding_mask(tokens: tf.Tensor):
    # 1.0 where the token is padding (id 0); (batch, 1, 1, length) to broadcast over heads and queries
    return tf.cast(tokens == 0, dtype=tf.float32)[:, np.newaxis, np.newaxis, :]


def _look_ahead_mask(length):
    # 1.0 above the diagonal: the later positions a query must not see
    return 1 - tf.linalg.band_part(tf.ones((length, length)), -1, 0)


def generate_mask(tokens: tf.Tensor):
    padding_mask = generate_padding_mask(tokens)
    look_ahead_mask = tf.math.maximum(_look_ahead_mask(tokens.shape[1]), padding_mask)
    return padding_mask, look_ahead_mask
