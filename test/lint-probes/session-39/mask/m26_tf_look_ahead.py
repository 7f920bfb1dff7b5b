import tensorflow as tf


def look_ahead_mask(size):
    return 1 - tf.linalg.band_part(tf.ones((size, size)), -1, 0)  # 1 on the future


def attention(q, k, v, mask):
    logits = tf.matmul(q, k, transpose_b=True) / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    if mask is not None:
        logits += mask * -1e9
    return tf.matmul(tf.nn.softmax(logits, axis=-1), v)


def decoder_self_attention(q, k, v):
    return attention(q, k, v, look_ahead_mask(tf.shape(q)[1]))
