import tensorflow as tf


def mask(inputs, queries=None, keys=None, type=None):
    """Masks padding on keys or queries of scores (N, T_q, T_k); padding rows of q/k are all zeros.

    "key": padded key columns get a very large negative number (before the activation);
    "query": padded query rows are multiplied by 0 (after it).
    """
    padding_num = -2 ** 32 + 1
    if type == "key":
        masks = tf.sign(tf.reduce_sum(tf.abs(keys), axis=-1))  # (N, T_k)
        masks = tf.expand_dims(masks, 1)  # (N, 1, T_k)
        masks = tf.tile(masks, [1, tf.shape(queries)[1], 1])  # (N, T_q, T_k)
        paddings = tf.ones_like(inputs) * padding_num
        return tf.where(tf.equal(masks, 0), paddings, inputs)
    if type == "query":
        masks = tf.sign(tf.reduce_sum(tf.abs(queries), axis=-1))  # (N, T_q)
        masks = tf.expand_dims(masks, -1)  # (N, T_q, 1)
        masks = tf.tile(masks, [1, 1, tf.shape(keys)[1]])  # (N, T_q, T_k)
        return inputs * masks
    raise ValueError("type must be 'key' or 'query'")


def division_masking(inputs, axis, multiplies):
    """Normalises over `axis`, writing 0 where the sum is 0 instead of dividing by it."""
    division_masks = tf.sign(tf.reduce_sum(inputs, axis=axis, keep_dims=True))
    division_masks = tf.tile(division_masks, multiples=multiplies)
    return tf.where(
        tf.equal(division_masks, 0),
        tf.zeros_like(inputs),
        tf.div(inputs, tf.reduce_sum(inputs, axis=axis, keep_dims=True)))
