import tensorflow as tf


def create_padding_mask(seq):
    """
    Creates a matrix mask for the padding cells

    Arguments:
        seq -- (n, m) matrix of token ids, 0 = padding

    Returns:
        mask -- (n, 1, m) binary tensor
    """
    seq = 1 - tf.cast(tf.math.equal(seq, 0), tf.float32)  # 1 = real token
    # add an axis so that the mask broadcasts over the query positions
    return seq[:, tf.newaxis, :]


def create_look_ahead_mask(size):
    """Lower-triangular (1, size, size) matrix of ones: position i sees positions <= i."""
    return tf.linalg.band_part(tf.ones((1, size, size)), -1, 0)
