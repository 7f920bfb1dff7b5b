import tensorflow as tf


# masks used by the decoder so that it cannot cheat: 1.0 marks a position to hide
def create_padding_mask(seq):
    mask = tf.cast(tf.math.equal(seq, 0), tf.float32)
    return mask[:, tf.newaxis, tf.newaxis, :]  # (B, 1, 1, S)


def create_look_ahead_mask(size):
    return 1 - tf.linalg.band_part(tf.ones((size, size)), -1, 0)  # (T, T), 1 above the diagonal


def create_masks(inp, tar):
    enc_padding_mask = create_padding_mask(inp)
    dec_padding_mask = create_padding_mask(inp)
    look_ahead = create_look_ahead_mask(tf.shape(tar)[1])
    combined = tf.maximum(create_padding_mask(tar), look_ahead)
    return enc_padding_mask, combined, dec_padding_mask
