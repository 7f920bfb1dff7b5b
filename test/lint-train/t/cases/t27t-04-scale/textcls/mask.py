"""Masks for the transformer classifier.

Token id 0 is padding (the embedding uses mask_zero=True), so the padding mask is 1.0
where the id is 0. The attention adds mask * -1e9 to its logits: the padded keys end up
with a weight of zero after the softmax, the real ones keep theirs.
"""
import tensorflow as tf


def create_padding_mask(seq):
    """seq: [batch_size, seq_len] int ids -> [batch_size, 1, 1, seq_len] float mask, 1.0 at padding."""
    seq = tf.cast(tf.math.equal(seq, 0), tf.float32)
    # attention logits are [batch_size, num_heads, seq_len_q, seq_len_k]
    return seq[:, tf.newaxis, tf.newaxis, :]


def padding_lengths(seq):
    """Number of real tokens per row (used for logging the length distribution)."""
    return tf.reduce_sum(tf.cast(tf.math.not_equal(seq, 0), tf.int32), axis=-1)
