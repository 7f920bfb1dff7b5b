import tensorflow as tf


def padding_mask(ids):
    is_pad = tf.cast(tf.math.equal(ids, 0), tf.float32)
    return is_pad[:, tf.newaxis, tf.newaxis, :]


def future_mask(size):
    return 1 - tf.linalg.band_part(tf.ones((size, size)), -1, 0)


def decoder_masks(src_ids, tgt_ids):
    enc_mask = padding_mask(src_ids)
    cross_mask = padding_mask(src_ids)
    self_mask = tf.maximum(padding_mask(tgt_ids), future_mask(tf.shape(tgt_ids)[1]))
    return enc_mask, self_mask, cross_mask
