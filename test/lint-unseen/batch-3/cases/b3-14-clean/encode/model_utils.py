import tensorflow as tf

_NEG_INF_FP32 = -1e9


def get_padding(x, padding_value=0, dtype=tf.float32):
    """1.0 at padding positions of x, 0.0 elsewhere."""
    return tf.cast(tf.equal(x, padding_value), dtype)


def get_padding_bias(x, padding_value=0):
    """Bias added to the pre-softmax logits: 0 at tokens, -1e9 at padding; (batch, 1, 1, length), float32."""
    padding = get_padding(x, padding_value)
    bias = padding * _NEG_INF_FP32
    return tf.expand_dims(tf.expand_dims(bias, axis=1), axis=1)
