import tensorflow as tf


def create_look_ahead_mask(seq_len):
    """Causal (look-ahead) mask for decoder self-attention.

    Returns a tensor of shape (1, 1, seq_len, seq_len) with 1 at the positions to be masked (future positions).
    """
    mask = 1 - tf.linalg.band_part(tf.ones((seq_len, seq_len)), -1, 0)
    return mask[tf.newaxis, tf.newaxis, :, :]
