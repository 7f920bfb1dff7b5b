import tensorflow as tf


def masked_attention(q, k, v, lengths):
    T = tf.shape(k)[1]
    keep = tf.sequence_mask(lengths, T)[:, tf.newaxis, :]
    logits = tf.matmul(q, k, transpose_b=True) / tf.sqrt(tf.cast(tf.shape(q)[-1], q.dtype))
    logits = tf.where(keep, logits, tf.fill(tf.shape(logits), -1e9))
    return tf.matmul(tf.nn.softmax(logits, -1), v)
