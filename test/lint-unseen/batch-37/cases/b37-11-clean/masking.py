import tensorflow as tf
from keras import backend as K


def where_mask(cond, then_tensor, else_tensor):
    """Elementwise switch on a (possibly non-boolean) mask; K.switch only takes scalar conditions in TF."""
    cond_shape = cond.get_shape()
    value_shape = then_tensor.get_shape()
    if cond_shape[-1] != value_shape[-1] and cond_shape[-1] == 1:
        cond = K.dot(tf.cast(cond, tf.float32), tf.ones((1, value_shape[-1])))
    return tf.where(tf.cast(cond, dtype=tf.bool), then_tensor, else_tensor)


def softmax_over_unmasked(scores, mask):
    """Softmax over the last axis of (batch_size, num_rows) scores, restricted to mask == 1.

    A fully masked row comes back as all zeros.
    """
    if mask is None:
        return K.softmax(scores)
    mask = K.cast(mask, 'float32')
    kept = mask * scores
    shifted = mask * (kept - K.max(kept, axis=1, keepdims=True))
    log_norm = K.log(K.sum(mask * K.exp(shifted), axis=1, keepdims=True) + K.epsilon())
    log_probs = mask * (shifted - log_norm)
    probs = K.exp(log_probs)
    return where_mask(mask, probs, K.zeros_like(probs))
