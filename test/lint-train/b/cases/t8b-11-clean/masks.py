import tensorflow as tf


def create_padding_mask(x):
    # 1.0 where the token id is 0 (padding): (batch, 1, 1, seq_len)
    mask = tf.cast(tf.math.equal(x, 0), tf.float32)
    return mask[:, tf.newaxis, tf.newaxis, :]


def create_look_ahead_mask(x):
    # 1.0 above the diagonal (future tokens) or at padding
    seq_len = tf.shape(x)[1]
    look_ahead_mask = 1 - tf.linalg.band_part(tf.ones((seq_len, seq_len)), -1, 0)
    return tf.maximum(look_ahead_mask, create_padding_mask(x))
