import tensorflow as tf


def attention(q, k, v, mask=None):
    logits = tf.matmul(q, k, transpose_b=True)
    logits *= tf.math.rsqrt(tf.cast(tf.shape(q)[-1], logits.dtype))
    if mask is not None:
        logits += tf.cast(mask, logits.dtype) * -1e9
    weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(weights, v)
