import tensorflow as tf


def subsequent_mask(size, name="mask_subsequent"):
    """(1, size, size): 1.0 on and below the diagonal (the positions a query may see)."""
    ones = tf.constant(1.0, shape=(1, size, size), dtype=tf.float32)
    return tf.linalg.band_part(ones, num_lower=-1, num_upper=0, name=name)


def expand(x, dim, dtype=None):
    x = tf.expand_dims(x, dim)
    if dtype is not None:
        x = tf.cast(x, dtype=dtype)
    return x
