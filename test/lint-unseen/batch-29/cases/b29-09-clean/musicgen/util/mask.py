import tensorflow as tf


# The padding mask is 1 where the note index is the pad value 0 and 0 elsewhere.
def create_padding_mask(seq):
    seq = tf.cast(tf.math.equal(seq, 0), tf.float32)
    return seq[:, tf.newaxis, tf.newaxis, :]  # (batch_size, 1, 1, seq_len)
