"""Mask helpers. Convention: True = the key may be attended to, False = blocked."""

import tensorflow as tf

# finite, so a fully blocked row stays finite instead of turning into NaN
NEG_INF = -1e9


def padding_mask(seq, pad_idx: int = 0):
    keep = tf.not_equal(seq, pad_idx)
    return keep[:, tf.newaxis, tf.newaxis, :]  # (B, 1, 1, S)


def look_ahead_mask(size):
    ones = tf.ones((size, size), dtype=tf.int32)
    lower = tf.linalg.band_part(ones, -1, 0)  # lower triangle with the diagonal
    return tf.cast(lower, tf.bool)[tf.newaxis, tf.newaxis, :, :]


def target_mask(tgt, pad_idx: int = 0):
    return tf.logical_and(padding_mask(tgt, pad_idx), look_ahead_mask(tf.shape(tgt)[1]))
