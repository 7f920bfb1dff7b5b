import tensorflow as tf

from masking import create_look_ahead_mask, create_padding_mask


def scaled_dot_product_attention(q, k, v, mask):
    logits = tf.matmul(q, k, transpose_b=True)
    logits = logits / tf.math.sqrt(tf.cast(tf.shape(k)[-1], tf.float32))
    if mask is not None:
        logits += mask * -1e9
    return tf.matmul(tf.nn.softmax(logits, axis=-1), v)


def decoder_self_attention(tar, q, k, v):
    look_ahead = create_look_ahead_mask(tf.shape(tar)[1])
    dec_pad = create_padding_mask(tar)
    combined = tf.maximum(dec_pad, look_ahead)
    return scaled_dot_product_attention(q, k, v, combined)
