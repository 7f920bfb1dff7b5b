import tensorflow as tf


def create_look_ahead_mask(size):
    # 1 above the diagonal: the future steps a query may not see
    mask = 1 - tf.linalg.band_part(tf.ones((size, size)), -1, 0)
    return mask
