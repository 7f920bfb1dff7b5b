import tensorflow as tf


def create_padding_mask(seq):
    seq = tf.cast(tf.math.equal(seq, 0), tf.float32)
    return seq[:, tf.newaxis, tf.newaxis, :]  # 1 at padding


def scaled_dot_product_attention(q, k, v, mask):
    matmul_qk = tf.matmul(q, k, transpose_b=True)
    dk = tf.cast(tf.shape(k)[-1], tf.float32)
    scaled_attention_logits = matmul_qk / tf.math.sqrt(dk)
    if mask is not None:
        scaled_attention_logits += mask * -1e9
    weights = tf.nn.softmax(scaled_attention_logits, axis=-1)
    return tf.matmul(weights, v)


def encoder_attention(q, k, v, inp):
    return scaled_dot_product_attention(q, k, v, create_padding_mask(inp))
