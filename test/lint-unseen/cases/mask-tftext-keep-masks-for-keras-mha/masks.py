import tensorflow as tf


def create_padding_mask(seq):
    # 1 where there is a token, 0 at padding: Keras attention_mask keeps the 1s
    seq = tf.cast(tf.math.not_equal(seq, 0), tf.float32)
    return seq[:, tf.newaxis, :]  # (batch_size, 1, seq_len)


def create_look_ahead_mask(size):
    mask = tf.linalg.band_part(tf.ones((size, size)), -1, 0)
    return mask  # (seq_len, seq_len), 1 on and below the diagonal


def create_masks(inp, tar):
    dec_padding_mask = create_padding_mask(inp)
    look_ahead_mask = create_look_ahead_mask(tf.shape(tar)[1])
    dec_target_padding_mask = create_padding_mask(tar)
    look_ahead_mask = tf.minimum(dec_target_padding_mask, look_ahead_mask)
    return look_ahead_mask, dec_padding_mask
