import tensorflow as tf


def create_padding_mask(seq):
    # 1.0 where the token id is 0 (padding), as (batch, 1, 1, seq_len)
    seq = tf.cast(tf.math.equal(seq, 0), tf.float32)
    return seq[:, tf.newaxis, tf.newaxis, :]


def create_look_ahead_mask(size):
    # band_part keeps the lower triangle; 1 - that marks the future positions
    return 1 - tf.linalg.band_part(tf.ones((size, size)), -1, 0)

