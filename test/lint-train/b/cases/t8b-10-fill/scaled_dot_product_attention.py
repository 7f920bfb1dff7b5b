# case: t8b-10-fill
# modelled-on: cyobero/datascience https://github.com/cyobero/datascience/commit/265fe481dbee94545d9348749ce24069cd4a9a69
# label: buggy
# class: real-bug
# pattern: a TensorFlow 2 transformer chatbot ported from a notebook into modules: the padding and look-ahead masks are built in one module (1.0 = hide), scaled dot-product attention in another adds `mask * <fill>` to the logits before a softmax over the last axis, and a Keras multi-head layer splits the heads and calls it
# why: buggy: the port adds mask * 1e-9 (a tiny positive number) where the notebook it was ported from, kept in the same repository, adds mask * -1e9; with 1e-9 the padded and future positions keep their full weight, so padding and the look-ahead mask have no effect (the port also mistyped tf as `tr` on the depth line, written here as tf)
# source: https://github.com/cyobero/datascience https://github.com/cyobero/datascience/commit/265fe481dbee94545d9348749ce24069cd4a9a69 tensorflow/chatbot/scaled_dot_product_attention.py
import tensorflow as tf


def scaled_dot_product_attention(query, key, value, mask):
    matmul_qk = tf.matmul(query, key, transpose_b=True)

    depth = tf.cast(tf.shape(key)[-1], tf.float32)
    logits = matmul_qk / tf.math.sqrt(depth)

    # add the mask to zero out padding tokens
    if mask is not None:
        logits += mask * 1e-9  # expect: ATT007

    attention_weights = tf.nn.softmax(logits, axis=-1)
    return tf.matmul(attention_weights, value)
